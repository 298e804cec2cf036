/**
 * The cost bound's baseline (docs/decisions/enrichment-cost-baseline.md): the pipeline as it stood when issue #37 set
 * the bound of 15 µs a line against its "about 8 µs", read out of the repository's history into .data/ once and timed
 * beside today's over the same lines in the same run. Their ratio does not move with the machine or its load, as a
 * line's microseconds do.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { EnrichmentInput } from '../../../src/enrichment/enrichment.ts';

/** src/enrichment's last change before round two (issue #37): the pipeline the issue measured at about 8 µs a line. */
export const BASELINE_COMMIT = '459e627b7abac4cc9a4365fc50e31f4792750fa1';
/** The bound as a ratio to the baseline: 15 µs a line where the baseline cost about 8. */
export const BOUND_RATIO = 15 / 8;

const ROOT = path.join(import.meta.dirname, '../../..');
const FOLDER = path.join(ROOT, '.data/eval-baseline', BASELINE_COMMIT.slice(0, 12));
const PIPELINE = path.join(FOLDER, 'src/enrichment/pipeline.ts');

export type Enrich = (input: EnrichmentInput) => unknown;

/** The baseline's `enrich`, or why it cannot be had (a copy without the repository's history: a shallow clone, an archive; a Node that no longer reads its code). */
export async function baselineEnrich(): Promise<Enrich | { unavailable: string }> {
  if (!existsSync(PIPELINE)) {
    try {
      extract();
    } catch (error) {
      return { unavailable: `src/enrichment at ${BASELINE_COMMIT.slice(0, 7)} is not in this copy's history (${firstLine(error)})` };
    }
  }
  try {
    return ((await import(PIPELINE)) as { enrich: Enrich }).enrich;
  } catch (error) {
    return { unavailable: `src/enrichment at ${BASELINE_COMMIT.slice(0, 7)} does not load on this Node (${firstLine(error)})` };
  }
}

/** src/enrichment at BASELINE_COMMIT into FOLDER, whole or not at all: extracted beside it, then renamed into place (another run's finished copy stands). */
function extract(): void {
  const partial = `${FOLDER}.${process.pid}.partial`;
  mkdirSync(partial, { recursive: true });
  try {
    const archive = execFileSync('git', ['archive', '--format=tar', BASELINE_COMMIT, 'src/enrichment'], { cwd: ROOT, maxBuffer: 16 << 20, stdio: ['ignore', 'pipe', 'pipe'] });
    execFileSync('tar', ['-x', '-C', partial], { input: archive });
    if (!existsSync(PIPELINE)) renameSync(partial, FOLDER);
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? ((error as { stderr?: Buffer }).stderr?.toString() || error.message) : String(error);
  return text.trim().split('\n')[0] ?? '';
}
