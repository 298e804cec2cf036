/**
 * The benchmark's baseline: the practical limit of this stack on this machine. node:https with the
 * same certificate, pg, the same SQL Tributary runs, JSON.stringify; no framework, no auth, no
 * validation. Started by `npm run bench` with BENCH_DATABASE_URL, BENCH_PORT, BENCH_CERT, BENCH_KEY.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.BENCH_DATABASE_URL, max: 10 });
// eslint-disable-next-line @typescript-eslint/no-misused-promises -- the handler catches every error itself: its promise never rejects.
const server = createServer({ cert: readFileSync(process.env.BENCH_CERT!), key: readFileSync(process.env.BENCH_KEY!), keepAlive: true }, async (request, response) => {
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const profileId = String(request.headers['x-profile-id']);
    let body: unknown;
    if (request.url === '/transactions') {
      const { since } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { since: string };
      const page = await pool.query<{ id: string; date: string; amount: string; description: string; account_id: string }>(
        `select id, date, amount, description, account_id from transaction
          where profile_id = $1 and date >= $2 and amount < 0 order by date desc, id desc limit 100`,
        [profileId, since],
      );
      const accountIds = [...new Set(page.rows.map((row) => row.account_id))];
      const accounts = await pool.query<{ id: string; name: string; kind: string }>('select id, coalesce(name_override, name) as name, kind from account where id = any($1)', [accountIds]);
      const byId = new Map(accounts.rows.map((account) => [account.id, account]));
      const edges = page.rows.map((row) => ({
        node: { id: row.id, date: row.date, amount: Number(row.amount), description: row.description, account: byId.get(row.account_id) },
      }));
      body = { data: { transactions: { edges } } };
    } else if (request.url?.startsWith('/profiles/')) {
      const result = await pool.query('select id, uuid, name, metadata, created_at from profile where id = $1', [request.url.slice('/profiles/'.length)]);
      body = result.rows[0];
    } else {
      body = { status: 'ok' };
    }
    const json = JSON.stringify(body);
    response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(json) });
    response.end(json);
  } catch (error) {
    response.writeHead(500).end(String(error));
  }
});
// Dates as the plain YYYY-MM-DD text PostgreSQL sends, like Tributary.
pg.types.setTypeParser(1082, (value) => value);
server.listen(Number(process.env.BENCH_PORT), '127.0.0.1', () => process.send?.('ready'));
