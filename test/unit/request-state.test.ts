import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CURRENT_VERSION } from '../../src/config.ts';
import { RequestState } from '../../src/http/request-state.ts';
import { createLogger } from '../../src/logger.ts';

/** A logger at debug level whose lines land in `lines`, parsed. */
function capturingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger('debug', new Writable({ write: (chunk, _encoding, done) => (lines.push(JSON.parse(String(chunk)) as Record<string, unknown>), done()) }));
  return { logger, lines };
}

describe('a request state', () => {
  it('makes its logger on first use, with the request id given after it was made, and keeps it', async () => {
    const { logger, lines } = capturingLogger();
    const state = new RequestState(undefined, logger);
    state.requestId = 'req_given';
    state.log.info('first');
    expect(state.log).toBe(state.log);
    state.log.info('second');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map((line) => [line.msg, line.requestId])).toEqual([
      ['first', 'req_given'],
      ['second', 'req_given'],
    ]);
  });

  it('starts at the current version with no credential, body or error', () => {
    const state = new RequestState(undefined, capturingLogger().logger);
    expect({ version: state.version, credential: state.credential, body: state.body, credentialError: state.credentialError }).toEqual({
      version: CURRENT_VERSION,
      credential: undefined,
      body: undefined,
      credentialError: undefined,
    });
  });

  it('refuses EntityManagers in an app without a database, rather than answering with none', () => {
    const state = new RequestState(undefined, capturingLogger().logger);
    expect(() => state.em).toThrow('This app has no database');
    expect(() => state.reads).toThrow('This app has no database');
    expect(() => state.unforked).toThrow('This app has no database');
  });
});
