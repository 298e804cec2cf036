/**
 * `npm run check`: every static check, in two lanes side by side (on two cores the whole takes about
 * as long as ESLint alone, its longest, instead of the sum). ESLint runs in one lane; the types and the
 * quick checks one after another in the other. Each check's output is printed whole when it ends, and
 * the run fails naming every check that failed.
 */
import { spawn } from 'node:child_process';

const LANES: string[][] = [['lint'], ['typecheck', 'lint:cycles', 'codegen:check', 'migrations:check', 'lint:contracts']];

/** Runs `npm run <script>`, holding its output until it ends; true when it passed. */
function runScript(script: string): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    const started = performance.now();
    child.on('close', (code) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      process.stdout.write(`\n> ${script}: ${code === 0 ? 'passed' : 'FAILED'} in ${seconds} s\n${Buffer.concat(output).toString('utf8')}`);
      resolve(code === 0);
    });
    child.on('error', (error) => {
      process.stdout.write(`\n> ${script}: could not start (${error.message})\n`);
      resolve(false);
    });
  });
}

/** A lane's checks in order; every one runs even after one fails, so one run reports them all. */
async function runLane(scripts: string[]): Promise<string[]> {
  const failed: string[] = [];
  for (const script of scripts) if (!(await runScript(script))) failed.push(script);
  return failed;
}

const failed = (await Promise.all(LANES.map(runLane))).flat();
if (failed.length > 0) {
  process.stderr.write(`\ncheck failed: ${failed.join(', ')}\n`);
  process.exitCode = 1;
} else {
  process.stdout.write('\nevery check passed\n');
}
