import { makeExecutableSchema } from '@graphql-tools/schema';
import { parse } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { describe, expect, it } from 'vitest';
import { withPlainFields } from '../../src/graphql/plain-fields.ts';

const typeDefs = `
  type Query { page: Page! item(id: ID!): Item }
  type Page { edges: [Edge!]! }
  type Edge { node: Item! }
  type Item { id: ID! name: String! storedId: String! owner: Owner! }
  type Owner { id: ID! label: String! }
`;
interface Row {
  id: string;
  name: string;
  ownerId: string;
}
const rows: Row[] = Array.from({ length: 6 }, (_, index) => ({ id: `r${index}`, name: `Row ${index}`, ownerId: `o${index % 2}` }));
const owners = new Map(['o0', 'o1'].map((id) => [id, { id, label: `Owner ${id}` }]));

/** The schema as the front door builds it, and how often each owner's public id was computed. */
function schemaWithCounts() {
  const ownerIds = new Map<string, number>();
  const resolvers = {
    Query: {
      // A property path to the plain type: Page and Edge have no resolvers of their own.
      page: () => ({ edges: rows.map((node) => ({ node })) }),
      item: (_root: unknown, { id }: { id: string }) => Promise.resolve(rows.find((row) => row.id === id) ?? null),
    },
    Item: {
      storedId: (row: Row) => row.id,
      // One promise per owner, shared by every item of that owner (as a DataLoader's).
      owner: (row: Row, _args: unknown, context: { owners: Map<string, Promise<unknown>> }) => context.owners.get(row.ownerId),
    },
  };
  const itemIds = new Map<string, number>();
  const plainFields = {
    Item: {
      id: (row: Row) => {
        itemIds.set(row.id, (itemIds.get(row.id) ?? 0) + 1);
        return `item_${row.id}`;
      },
    },
    Owner: {
      id: (owner: { id: string }) => {
        ownerIds.set(owner.id, (ownerIds.get(owner.id) ?? 0) + 1);
        return `owner_${owner.id}`;
      },
    },
  };
  return { schema: withPlainFields(makeExecutableSchema({ typeDefs, resolvers }), plainFields), ownerIds, itemIds };
}

async function run(query: string) {
  const { schema, ownerIds, itemIds } = schemaWithCounts();
  const compiled = compileQuery(schema, parse(query));
  if (!isCompiledQuery(compiled)) throw new Error(JSON.stringify(compiled));
  const context = { owners: new Map([...owners].map(([id, owner]) => [id, Promise.resolve(owner)])) };
  return { result: await compiled.query(undefined, context, {}), ownerIds, itemIds };
}

describe('plain fields', () => {
  it('are computed from the source; other resolvers get the source; property fields read through, on the way through edges', async () => {
    const { result } = await run('{ page { edges { node { id name storedId owner { id label } } } } }');
    expect(result).toEqual({
      data: { page: { edges: rows.map((row) => ({ node: { id: `item_${row.id}`, name: row.name, storedId: row.id, owner: { id: `owner_${row.ownerId}`, label: `Owner ${row.ownerId}` } } })) } },
    });
  });

  it('present a shared source once: the owners of six items are computed once each', async () => {
    const { ownerIds } = await run('{ page { edges { node { owner { id } } } } }');
    expect(Object.fromEntries(ownerIds)).toEqual({ o0: 1, o1: 1 });
  });

  it('are computed only when a document selects them, once however often it is read', async () => {
    expect(Object.fromEntries((await run('{ page { edges { node { name } } } }')).itemIds)).toEqual({});
    const { itemIds } = await run('{ page { edges { node { id again: id name } } } }');
    expect(Object.fromEntries(itemIds)).toEqual(Object.fromEntries(rows.map((row) => [row.id, 1])));
  });

  it('present what a resolver returns, promised or null', async () => {
    expect((await run('{ item(id: "r3") { id storedId } }')).result).toEqual({ data: { item: { id: 'item_r3', storedId: 'r3' } } });
    expect((await run('{ item(id: "none") { id } }')).result).toEqual({ data: { item: null } });
  });

  it('refuse a declaration that names no field of the type, or a field that also has a resolver', () => {
    const schema = () => makeExecutableSchema({ typeDefs, resolvers: { Item: { name: (row: Row) => row.name } } });
    expect(() => withPlainFields(schema(), { Item: { title: () => '' } })).toThrow('Item has no field title to serve as a plain property');
    expect(() => withPlainFields(schema(), { Item: { name: () => '' } })).toThrow('Item.name has both a resolver and a plain property');
    expect(() => withPlainFields(schema(), { Nothing: {} })).toThrow('Nothing is not an object type of the schema');
  });
});
