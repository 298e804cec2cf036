import { fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { S3Settings } from '../../src/config.ts';
import { selfSignedLocalhost } from '../fakes/tls.ts';

/** An S3 server on loopback (s3rver, over HTTPS), with one empty bucket. */
export interface S3TestServer {
  /** Settings that reach its bucket, its certificate trusted through caFile. */
  settings: S3Settings;
  /** The same as BLOB_STORE=s3 and S3_* variables, for startTestApp. */
  env: Record<string, string>;
  close(): Promise<void>;
}

const BUCKET = 'tributary-test';
const START_TIMEOUT_MS = 20_000;

/**
 * Starts s3rver (test/support/s3rver-main.ts) on 127.0.0.1 with a fresh self-signed certificate; it
 * checks request signatures (its one account's keys are S3RVER/S3RVER). Throws when the server
 * cannot start, so a test that needs it fails instead of passing without S3.
 */
export async function startS3Server(): Promise<S3TestServer> {
  const directory = mkdtempSync(path.join(tmpdir(), 'tributary-s3-'));
  const { cert, key } = await selfSignedLocalhost();
  const caFile = path.join(directory, 'tls.crt');
  writeFileSync(caFile, cert);
  writeFileSync(path.join(directory, 'tls.key'), key, { mode: 0o600 });
  const child = fork(path.join(import.meta.dirname, 's3rver-main.ts'), [directory, BUCKET], {
    execArgv: ['--openssl-legacy-provider'],
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const port = await Promise.race([
    once(child, 'message').then(([message]) => (message as { port: number }).port),
    once(child, 'exit').then(([code]) => Promise.reject(new Error(`s3rver exited (${code}) before listening:\n${stderr}`))),
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`s3rver did not listen within ${START_TIMEOUT_MS} ms:\n${stderr}`)), START_TIMEOUT_MS).unref()),
  ]).catch((error: unknown) => {
    child.kill();
    rmSync(directory, { recursive: true, force: true });
    throw error;
  });
  const settings: S3Settings = {
    endpoint: `https://127.0.0.1:${port}`,
    region: 'us-east-1',
    bucket: BUCKET,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
    caFile,
  };
  return {
    settings,
    env: {
      BLOB_STORE: 's3',
      S3_ENDPOINT: settings.endpoint!,
      S3_REGION: settings.region,
      S3_BUCKET: settings.bucket,
      S3_ACCESS_KEY_ID: settings.accessKeyId,
      S3_SECRET_ACCESS_KEY: settings.secretAccessKey,
      S3_CA_FILE: caFile,
    },
    async close() {
      const exited = once(child, 'exit');
      child.disconnect();
      await exited;
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
