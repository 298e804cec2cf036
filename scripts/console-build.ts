/**
 * The operator console's static files: src/console/ bundled with rolldown (React, TanStack Query,
 * the clients typed from the contracts) into `<out>/assets/` under content-hashed names, and
 * `<out>/index.html` pointing at them. The service serves `<out>` at /console
 * (src/pages/console/console-pages.ts). `npm run build` writes dist/console; the tests' global setup
 * writes one per run (test/support/global-setup.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { rolldown } from 'rolldown';

const SOURCE = path.resolve(import.meta.dirname, '../src/console');
/** Written last: its presence says the folder is complete; its content, which sources it was built from. */
const FINGERPRINT = '.sources-fingerprint';

/** Builds the console into `outDir` (replaced), unless it already holds a build of the same sources. */
export async function buildConsole(outDir: string): Promise<void> {
  const fingerprint = sourcesFingerprint();
  const marker = path.join(outDir, FINGERPRINT);
  if (existsSync(marker) && readFileSync(marker, 'utf8') === fingerprint) return;
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(path.join(outDir, 'assets'), { recursive: true });
  const script = await bundle(outDir);
  const css = readFileSync(path.join(SOURCE, 'console.css'));
  const stylesheet = `assets/console-${createHash('sha256').update(css).digest('hex').slice(0, 16)}.css`;
  writeFileSync(path.join(outDir, stylesheet), css);
  const html = readFileSync(path.join(SOURCE, 'index.html'), 'utf8').replace('{{script}}', `/console/${script}`).replace('{{stylesheet}}', `/console/${stylesheet}`);
  writeFileSync(path.join(outDir, 'index.html'), html);
  writeFileSync(marker, fingerprint);
}

/** The browser code as one ES module; returns its path under `outDir`. */
async function bundle(outDir: string): Promise<string> {
  const build = await rolldown({
    input: path.join(SOURCE, 'main.tsx'),
    platform: 'browser',
    transform: { define: { 'process.env.NODE_ENV': '"production"' }, jsx: 'react-jsx' },
    // TanStack Query marks its modules "use client" (for React Server Components, which a static bundle has none of).
    onLog: (level, log, report) => log.code !== 'MODULE_LEVEL_DIRECTIVE' && report(level, log),
  });
  try {
    const { output } = await build.write({ dir: outDir, format: 'esm', entryFileNames: 'assets/console-[hash].js', hashCharacters: 'hex', minify: true });
    return output[0].fileName;
  } finally {
    await build.close();
  }
}

/** SHA-256 over the console's sources, the generated types it imports, and the dependencies' versions. */
function sourcesFingerprint(): string {
  const hash = createHash('sha256');
  const files = readdirSync(SOURCE, { recursive: true, withFileTypes: true })
    .filter((dirent) => dirent.isFile())
    .map((dirent) => path.join(dirent.parentPath, dirent.name));
  const root = path.dirname(SOURCE);
  for (const file of [...files, import.meta.filename, path.resolve(root, '../package-lock.json')].sort()) hash.update(`${file}\0`).update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}
