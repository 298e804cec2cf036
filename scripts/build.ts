/**
 * `npm run build`: compiles the service, the operator scripts and the image's healthcheck to
 * JavaScript under dist/ (mirroring the repository's layout, so `new URL('../../contracts/…',
 * import.meta.url)` finds dist/contracts), copies the files they read at run time beside them (the
 * contracts and the pages' HTML), and bundles the operator console into dist/console
 * (scripts/console-build.ts). Production runs dist/src/main.js: no type stripping at start.
 *
 * `--if-stale` builds only when the sources differ from those dist/ was built from (a fingerprint of
 * their contents), so `npm start` builds on a fresh checkout and after a change, and otherwise costs
 * a few milliseconds. The new dist/ replaces the old one only once it is complete.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { buildConsole } from './console-build.ts';

const OUT = 'dist';
const CONFIG = 'tsconfig.build.json';
/** The console's browser code: bundled, not compiled with the service. */
const CONSOLE_SOURCE = 'src/console';
const FINGERPRINT = path.join(OUT, '.sources-fingerprint');
/** Read at run time, so copied beside the compiled code (paths relative to the repository). */
const ASSETS = ['contracts', ...listFiles('src').filter((file) => file.endsWith('.html') && !file.startsWith(`${CONSOLE_SOURCE}/`))];

const { include } = JSON.parse(readFileSync(CONFIG, 'utf8')) as { include: string[] };
const fingerprint = fingerprintOf([...include, ...ASSETS, 'generated', CONFIG, 'tsconfig.json', 'package.json', 'package-lock.json', 'scripts/build.ts', 'scripts/console-build.ts']);

if (process.argv.includes('--if-stale') && existsSync(FINGERPRINT) && readFileSync(FINGERPRINT, 'utf8') === fingerprint) process.exit(0);

const started = performance.now();
console.error(`Building ${OUT}/ …`);
const next = `${OUT}.next-${process.pid}`;
rmSync(next, { recursive: true, force: true });
try {
  execFileSync(process.execPath, [createRequire(import.meta.url).resolve('typescript/bin/tsc'), '-p', CONFIG, '--outDir', next], { stdio: 'inherit' });
  for (const asset of ASSETS) cpSync(asset, path.join(next, asset), { recursive: true });
  await buildConsole(path.join(next, 'console'));
  writeFileSync(path.join(next, path.basename(FINGERPRINT)), fingerprint);
  const previous = `${OUT}.previous-${process.pid}`;
  if (existsSync(OUT)) renameSync(OUT, previous);
  renameSync(next, OUT);
  rmSync(previous, { recursive: true, force: true });
} catch (error) {
  rmSync(next, { recursive: true, force: true });
  console.error(`The build failed${(error as { status?: number }).status ? ' (the type errors above)' : `: ${(error as Error).message}`}`);
  process.exit(1);
}
console.error(`Built ${OUT}/ in ${((performance.now() - started) / 1000).toFixed(1)} s`);

/** SHA-256 over the paths and contents of every file under `entries` (files or folders). */
function fingerprintOf(entries: string[]): string {
  const hash = createHash('sha256');
  for (const file of [...new Set(entries.flatMap(listFiles))].sort()) hash.update(`${file}\0`).update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

function listFiles(entry: string): string[] {
  if (!statSync(entry).isDirectory()) return [entry];
  return readdirSync(entry, { recursive: true, withFileTypes: true })
    .filter((dirent) => dirent.isFile())
    .map((dirent) => path.join(dirent.parentPath, dirent.name));
}
