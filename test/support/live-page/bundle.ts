import path from 'node:path';
import { rolldown } from 'rolldown';

/** The live page's browser code as one script (IIFE), bundled now from node_modules with rolldown (what vite bundles with). */
export async function livePageScript(): Promise<string> {
  const bundle = await rolldown({
    input: path.join(import.meta.dirname, 'entry.ts'),
    platform: 'browser',
    transform: { define: { 'process.env.NODE_ENV': '"production"' } },
    logLevel: 'silent',
  });
  try {
    const { output } = await bundle.generate({ format: 'iife' });
    return output[0].code;
  } finally {
    await bundle.close();
  }
}
