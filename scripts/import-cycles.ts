/**
 * `npm run lint:cycles`: fails on any import cycle among src/'s files, type-only imports included
 * (eslint's import-x/no-cycle skips those, and has no option to see them). Prints each cycle found.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(import.meta.dirname, '../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Each file's relative imports inside src/, `import type` and `export … from` included. */
function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files);
  return new Map(
    files.map((file) => {
      const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
      const targets = importedFiles.filter(({ fileName }) => fileName.startsWith('.')).map(({ fileName }) => path.resolve(path.dirname(file), fileName));
      return [file, targets.filter((target) => known.has(target))];
    }),
  );
}

/** Strongly connected components of more than one file, or a file importing itself (Tarjan's algorithm). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)!.includes(file)) found.push(component);
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

const found = cycles(importGraph(sourceFiles(ROOT)));
for (const component of found) console.error(`import cycle among: ${component.map((file) => path.relative(ROOT, file)).sort().join(', ')}`);
if (found.length > 0) process.exit(1);
console.log('no import cycles in src/');
