import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// The event log's type filter is one byte range, [type, type + '/') (event.store.ts eventWhere): exact
// only while no event type holds a byte below '.' ('/' is the byte after it). Every event the service
// records has a type of the contract's EventType (responses and webhook bodies are checked against it).
const contract = parse(readFileSync(new URL('../../contracts/rest.yaml', import.meta.url), 'utf8')) as {
  components: { schemas: { EventType: { enum: string[] } } };
};

describe('event types', () => {
  it('hold letters, underscores and dots only, so a prefix of whole segments is one byte range of them', () => {
    const types = contract.components.schemas.EventType.enum;
    expect(types.length).toBeGreaterThan(10);
    for (const type of types) expect(type).toMatch(/^[A-Za-z_]+(\.[A-Za-z_]+)*$/);
    // What the range takes in, taken literally: the type itself, and the types under it.
    const under = (prefix: string) => types.filter((type) => Buffer.compare(Buffer.from(type), Buffer.from(prefix)) >= 0 && Buffer.compare(Buffer.from(type), Buffer.from(`${prefix}/`)) < 0);
    for (const prefix of ['connection', 'connection.synced', 'connection.synced.errored', 'profile', 'recurring_stream', 'balance.created']) {
      expect(under(prefix)).toEqual(types.filter((type) => type === prefix || type.startsWith(`${prefix}.`)));
    }
  });
});
