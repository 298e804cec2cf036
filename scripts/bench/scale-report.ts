import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import type { Timing } from './scale-measure.ts';

/** One size of the scale bench: what was seeded, how long it took, and what each path cost. */
export interface ScaleSize {
  size: number;
  profiles: number;
  events: number;
  seeding: { transactionsSeconds: number; eventsSeconds: number; vacuumSeconds: number };
  disk: Record<string, { rows: number; bytes: number }>;
  timings: Record<string, Timing>;
}

/** The ratio the issue sets for every hot path, largest size over smallest. */
const TARGET = 1.3;

/** Prints each size's timings (measured on `commit`), the ratio of the largest size to the smallest, and the disk per row, and saves it all to bench/results/. */
export function reportScale(sizes: ScaleSize[], commit: string): void {
  const first = sizes[0]!;
  const last = sizes.at(-1)!;
  const short = (size: number) => (size >= 1e6 ? `${size / 1e6}M` : `${size / 1e3}k`);
  const ratio = (a: number | undefined, b: number | undefined) => (a && b && Number.isFinite(a / b) ? `${(a / b).toFixed(2)}×` : '–');
  const perRow = (size: ScaleSize, table: string) => {
    const use = size.disk[table];
    return use && use.rows > 0 ? `${Math.round(use.bytes / use.rows)} B (${(use.bytes / 2 ** 20).toFixed(0)} MB)` : '–';
  };
  const lines = [
    `Tributary scale benchmark — ${new Date().toISOString()} — commit ${commit} — ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
    `Sizes: ${sizes.map((size) => `${short(size.size)} transactions (${size.profiles.toLocaleString('en-US')} profiles) and ${short(size.events)} events`).join('; ')}; each path timed alone, one request at a time`,
    '',
    `| Path | ${sizes.map((size) => `p50 / p99 ms (samples) at ${short(size.size)}`).join(' | ')} | ${short(last.size)} / ${short(first.size)} p50 | p99 | Target |`,
    `|---|${sizes.map(() => '---|').join('')}---|---|---|`,
    ...Object.keys(first.timings).map((name) => {
      const a = first.timings[name];
      const b = last.timings[name];
      const cell = (timing: Timing | undefined) => (!timing ? '–' : timing.failed ? `failed: ${timing.failed}` : `${timing.p50} / ${timing.p99} (${timing.samples})`);
      return `| ${name} | ${sizes.map((size) => cell(size.timings[name])).join(' | ')} | ${ratio(b?.p50, a?.p50)} | ${ratio(b?.p99, a?.p99)} | ≤ ${TARGET}× |`;
    }),
    '',
    '| Size | seeding: transactions / events / vacuum analyze | transaction on disk per row | event on disk per row |',
    '|---|---|---|---|',
    ...sizes.map(
      (size) =>
        `| ${short(size.size)} | ${size.seeding.transactionsSeconds} s / ${size.seeding.eventsSeconds} s / ${size.seeding.vacuumSeconds} s | ${perRow(size, 'transaction')} | ${perRow(size, 'event')} |`,
    ),
  ];
  console.log(`\n${lines.join('\n')}`);
  mkdirSync('bench/results', { recursive: true });
  const at = new Date().toISOString();
  const file = `bench/results/${at.slice(0, 19).replaceAll(':', '-')}-scale.json`;
  const machine = { cpus: cpus().length, model: cpus()[0]?.model, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version };
  writeFileSync(file, `${JSON.stringify({ at, commit, machine, target: TARGET, sizes }, null, 2)}\n`);
  console.log(`\nSaved ${file}`);
}
