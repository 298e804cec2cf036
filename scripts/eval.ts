/**
 * `npm run eval [-- <section>…] [--misses]`: measures Tributary's local intelligence against
 * hand-labelled data and prints one section per evaluator, each a module in scripts/eval/ that
 * exports `evaluate` (see Evaluator). Sections run in file-name order; naming some runs only those.
 * `--misses` also lists what each got wrong (for the development splits only, never a held-out line: see
 * docs/decisions/enrichment-evaluation.md). Exits 1 when an evaluator finds its data invalid.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

export interface EvaluationOptions {
  /** List the items the evaluator got wrong, besides the figures. */
  misses: boolean;
}

/** What a module of scripts/eval/ exports. */
export interface Evaluator {
  /** The section's title, and the lines under it. */
  evaluate(options: EvaluationOptions): Promise<{ title: string; lines: string[] }>;
}

const { values, positionals } = parseArgs({ options: { misses: { type: 'boolean', default: false } }, allowPositionals: true });
const folder = path.join(import.meta.dirname, 'eval');
const available = readdirSync(folder)
  .filter((file) => file.endsWith('.ts'))
  .sort()
  .map((file) => file.slice(0, -'.ts'.length));
const unknown = positionals.filter((name) => !available.includes(name));
if (unknown.length > 0) {
  console.error(`No evaluator named ${unknown.join(', ')}; there are: ${available.join(', ')}`);
  process.exit(2);
}

for (const name of positionals.length > 0 ? positionals : available) {
  const evaluator = (await import(path.join(folder, `${name}.ts`))) as Evaluator;
  const { title, lines } = await evaluator.evaluate({ misses: values.misses });
  console.log(`\n## ${title}\n`);
  for (const line of lines) console.log(line);
}
