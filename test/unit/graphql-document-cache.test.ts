import { describe, expect, it } from 'vitest';
import { DocumentCache } from '../../src/graphql/documents.ts';
import { LIMITS } from '../../src/graphql/limits.ts';
import { buildSchema } from '../../src/graphql/server.ts';

const PAGE = (first: string) => `query Page($since: Date) { transactions(first: ${first}, filter: {date_gte: $since}) { edges { node { id account { id name } } } } }`;

describe('the document cache', () => {
  const documents = new DocumentCache(buildSchema(), { hideSuggestions: false });

  it('remembers the cost of a document whose cost reads no variable, with any variables', () => {
    const first = documents.prepare(PAGE('100'), { since: '2026-01-01' });
    const again = documents.prepare(PAGE('100'), { since: '2026-02-01' });
    expect('cost' in first && first.cost).toBe(301);
    expect('cost' in again && again.cost).toBe(301);
  });

  it('measures again, with each request\'s variables, a cost that reads one (`first: $n`)', () => {
    const query = PAGE('$n').replace('$since: Date', '$since: Date, $n: Int');
    const small = documents.prepare(query, { n: 10 });
    const large = documents.prepare(query, { n: 100 });
    expect('cost' in small && small.cost).toBe(31);
    expect('cost' in large && large.cost).toBe(301);
  });

  it('refuses a cost over the limit on every request, remembered or not', () => {
    const wide = `{ ${Array.from({ length: 20 }, (_, index) => `a${index}: transactions(first: 100) { edges { node { account { id } } } }`).join(' ')} }`;
    for (let i = 0; i < 2; i++) {
      const prepared = documents.prepare(wide, {});
      expect('errors' in prepared ? prepared.errors[0]!.message : 'ran').toBe(`Query cost 6020 exceeds the limit of ${LIMITS.cost} (see the Limits section of the schema description)`);
    }
  });
});
