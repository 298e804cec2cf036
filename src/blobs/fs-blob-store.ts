import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { BlobDriver } from './blob-driver.ts';
import { checkBlobKey, checkBlobPrefix } from './blob-keys.ts';

/**
 * Blobs as files under one directory (DATA_DIR/blobs): key `a/b.pdf` is the file `a/b.pdf` there.
 * Keys are checked (no `..`, no absolute key), files are 0600 in 0700 directories, and a write goes
 * to a temporary file that is renamed over the key's, so a reader sees the old bytes or the new, never a part.
 */
export class FsBlobStore implements BlobDriver {
  readonly #root: string;

  constructor(root: string) {
    this.#root = path.resolve(root);
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    const file = this.#path(checkBlobKey(key));
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    // Temporary names start with a dot, which no key segment does: never taken for a blob.
    const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
    const handle = await open(temporary, 'wx', 0o600);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } catch (error) {
      await handle.close();
      await rm(temporary, { force: true });
      throw error;
    }
    await handle.close();
    await rename(temporary, file).catch(async (error: unknown) => {
      await rm(temporary, { force: true });
      throw error;
    });
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.#path(checkBlobKey(key)));
    } catch (error) {
      // ENOTDIR: a segment of the key is a file (key `a/b` where `a` is a blob); EISDIR: the key is only a prefix.
      if (['ENOENT', 'ENOTDIR', 'EISDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) return null;
      throw error;
    }
  }

  async deletePrefix(prefix: string): Promise<void> {
    checkBlobPrefix(prefix);
    for (const name of await this.#entriesStartingWith(prefix)) await rm(name, { recursive: true, force: true });
  }

  async *keys(prefix: string): AsyncIterable<string> {
    if (prefix !== '') checkBlobPrefix(prefix);
    for (const entry of await this.#entriesStartingWith(prefix)) {
      const stack = [entry];
      while (stack.length > 0) {
        const current = stack.pop()!;
        const children = await readdir(current, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOTDIR') return undefined;
          if (error.code === 'ENOENT') return [];
          throw error;
        });
        if (children === undefined) yield path.relative(this.#root, current).split(path.sep).join('/');
        else for (const child of children) if (!child.name.startsWith('.')) stack.push(path.join(current, child.name));
      }
    }
  }

  /** The files and directories whose keys start with prefix: the entries of its directory part that start with its last segment. */
  async #entriesStartingWith(prefix: string): Promise<string[]> {
    const slash = prefix.lastIndexOf('/');
    const directory = path.join(this.#root, ...prefix.slice(0, slash + 1).split('/').filter(Boolean));
    const start = prefix.slice(slash + 1);
    try {
      const names = await readdir(directory);
      return names.filter((name) => name.startsWith(start) && !name.startsWith('.')).map((name) => path.join(directory, name));
    } catch (error) {
      if (['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) return [];
      throw error;
    }
  }

  #path(key: string): string {
    return path.join(this.#root, ...key.split('/'));
  }
}
