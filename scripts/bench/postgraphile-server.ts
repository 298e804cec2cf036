/**
 * PostGraphile v5 (Amber preset) over the same tables, for the benchmark's peer comparison. The
 * transactions page is a SQL function PostGraphile exposes as a connection field, so it runs the same
 * filter and order; accounts come through PostGraphile's own relation planning. Started by
 * `npm run bench` with BENCH_DATABASE_URL, BENCH_PORT, BENCH_CERT, BENCH_KEY.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { postgraphile } from 'postgraphile';
import { makePgService } from 'postgraphile/adaptors/pg';
import { grafserv } from 'postgraphile/grafserv/node';
import { PostGraphileAmberPreset } from 'postgraphile/presets/amber';

const preset: GraphileConfig.Preset = {
  extends: [PostGraphileAmberPreset],
  pgServices: [makePgService({ connectionString: process.env.BENCH_DATABASE_URL!, schemas: ['public', 'bench_postgraphile'], poolConfig: { max: 10 } })],
  grafserv: { graphqlPath: '/graphql', watch: false },
  grafast: { explain: false },
};
const pgl = postgraphile(preset);
const serv = pgl.createServ(grafserv);
const server = createServer({ cert: readFileSync(process.env.BENCH_CERT!), key: readFileSync(process.env.BENCH_KEY!), keepAlive: true });
await serv.addTo(server);
server.listen(Number(process.env.BENCH_PORT), '127.0.0.1', () => process.send?.('ready'));
// The bench stops its servers with SIGTERM: exiting normally on it lets --cpu-prof (BENCH_CPU_PROF=1) write this server's profile.
process.once('SIGTERM', () => process.exit(0));
