/**
 * The benchmark's baseline: the practical limit of this stack on this machine. node:https with the
 * same certificate, pg, the statements Tributary sends for the same request (same text, same
 * parameters), and the same JSON answer, made with JSON.stringify; no framework, no auth, no
 * validation, no GraphQL. Started by `npm run bench` with BENCH_DATABASE_URL, BENCH_PORT,
 * BENCH_CERT, BENCH_KEY.
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import pg from 'pg';
import { encodeId } from '../../src/lib/ids.ts';

const pool = new pg.Pool({ connectionString: process.env.BENCH_DATABASE_URL, max: 10 });
// The columns Tributary's transaction page reads for the bench's selection (`id date amount description
// account { … }`: a page reads the columns its document selects, src/modules/transaction/transaction.resolvers.ts).
const COLUMNS = `t.id, t.account_id as "accountId", to_char(t.date, 'YYYY-MM-DD') as date, t.description, t.amount::text as amount`;
// A page with `account` selected reads the profile's accounts in the same statement, as one json array
// on a row of its own after the page's (src/modules/transaction/transaction.store.ts, `filteredStatements.page`),
// each with the columns the account view reads (src/modules/account/account.store.ts).
const VIEW = ['id', 'connection_id', 'name', 'name_override', 'kind', 'subtype', 'state', 'verified', 'mask', 'currency_code', 'latest_balance_id', 'metadata', 'created_at'];
const camel = (column: string) => column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
// With `remoteData` selected, the page reads each row's remote data too.
const withAccounts = (where: string, limit: string, remoteData = false) =>
  `(select ${COLUMNS}${remoteData ? ', t.remote_data as "remoteData"' : ''}, null::json as accounts from transaction t where ${where} order by t.date desc, t.id desc limit ${limit})
     union all select null, null, null, null, null${remoteData ? ', null' : ''}, (select json_agg(json_build_object(${VIEW.map((column) => `'${camel(column)}', a."${column}"`).join(', ')})) from account a where a.profile_id = $1)`;

interface Row {
  id: string;
  accountId: string;
  date: string;
  description: string;
  amount: string;
  remoteData?: unknown;
  /** The profile's accounts, on a row of their own (null id). */
  accounts: AccountRow[] | null;
}
/** The fields of a page's accounts and the profile read that the answers use. */
interface AccountRow {
  id: string;
  name: string;
  nameOverride: string | null;
  kind: string;
}
interface ProfileRow {
  id: string;
  uuid: string;
  name: string | null;
  names: unknown;
  metadata: unknown;
  created_at: Date;
  email_encrypted: string | null;
  phone_encrypted: string | null;
  date_of_birth_encrypted: string | null;
  address_encrypted: string | null;
}

/** The `transactions` answer for `rows` (one page plus one row telling whether more follow). */
function page(rows: Row[], size: number, options: { remoteData: boolean; pageInfo: boolean }) {
  const found = rows.filter((row) => row.id !== null);
  const records = found.slice(0, size);
  const accounts = rows.find((row) => row.id === null)?.accounts ?? [];
  const accountById = new Map(accounts.map((account) => [account.id, { id: encodeId('account', account.id), name: account.nameOverride ?? account.name, kind: account.kind }]));
  const edges = records.map((row) => ({
    node: {
      id: encodeId('transaction', row.id),
      date: row.date,
      amount: Number(row.amount),
      description: row.description,
      ...(options.remoteData ? { remoteData: row.remoteData } : {}),
      account: accountById.get(row.accountId),
    },
  }));
  const last = records.at(-1);
  const endCursor = last ? Buffer.from(JSON.stringify(['d', last.date, last.id])).toString('base64url') : null;
  return { data: { transactions: { edges, ...(options.pageInfo ? { pageInfo: { hasNextPage: found.length > size, endCursor } } : {}) } } };
}

async function respond(request: IncomingMessage, response: ServerResponse): Promise<void> {
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const profileId = String(request.headers['x-profile-id']);
    let body: unknown;
    if (request.url === '/transactions') {
      // transactions(first: 100, sort: DATE_DESC, filter: {date_gte: $since, entryType: DEBIT})
      const { since, remoteData } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { since: string; remoteData?: boolean };
      const rows = await pool.query<Row>(
        withAccounts('t.profile_id = $1 and t.amount < 0 and t.date >= $2::date', '$3', Boolean(remoteData)),
        [profileId, since, 101],
      );
      body = page(rows.rows, 100, { remoteData: Boolean(remoteData), pageInfo: false });
    } else if (request.url === '/walk') {
      // transactions(first: 5, after: $after), sort DATE_DESC
      const { after } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { after: string | null };
      const [, date, id] = after ? (JSON.parse(Buffer.from(after, 'base64url').toString('utf8')) as string[]) : [];
      const rows = after
        ? await pool.query<Row>(withAccounts('t.profile_id = $1 and (t.date, t.id) < ($2::date, $3::uuid)', '$4'), [profileId, date, id, 6])
        : await pool.query<Row>(withAccounts('t.profile_id = $1', '$2'), [profileId, 6]);
      body = page(rows.rows, 5, { remoteData: false, pageInfo: true });
    } else if (request.url?.startsWith('/profiles/')) {
      // GET /v1/profiles/{id}: the seeded profiles have no encrypted fields, so there is nothing to decrypt.
      const environmentId = String(request.headers['x-environment-id']);
      const { rows } = await pool.query<ProfileRow>('select * from profile where id = $1 and environment_id = $2 and deleting_at is null', [request.url.slice('/profiles/'.length), environmentId]);
      const row = rows[0];
      if (!row || row.email_encrypted || row.phone_encrypted || row.date_of_birth_encrypted || row.address_encrypted) throw new Error('the baseline serves seeded profiles only');
      body = { id: encodeId('profile', row.id), uuid: row.uuid, metadata: row.metadata, at: row.created_at.toISOString(), email: null, phone: null, name: row.name, names: row.names, dateOfBirth: null, address: null };
    } else {
      body = { status: 'ok' };
    }
    const json = JSON.stringify(body);
    response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(json) });
    response.end(json);
  } catch (error) {
    response.writeHead(500).end(String(error));
  }
}

const server = createServer({ cert: readFileSync(process.env.BENCH_CERT!), key: readFileSync(process.env.BENCH_KEY!), keepAlive: true }, (request, response) => void respond(request, response));
// Dates as the plain YYYY-MM-DD text PostgreSQL sends, like Tributary.
pg.types.setTypeParser(1082, (value) => value);
server.listen(Number(process.env.BENCH_PORT), '127.0.0.1', () => process.send?.('ready'));
// The bench stops its servers with SIGTERM: exiting normally on it lets --cpu-prof (BENCH_CPU_PROF=1) write this server's profile.
process.once('SIGTERM', () => process.exit(0));
