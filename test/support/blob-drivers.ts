import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BlobDriver } from '../../src/blobs/blob-driver.ts';
import { FsBlobStore } from '../../src/blobs/fs-blob-store.ts';
import { S3BlobStore } from '../../src/blobs/s3-blob-store.ts';
import { startS3Server } from './s3-server.ts';

/** An opened driver, and how to read a blob's bytes as they are at rest, bypassing it. */
export interface OpenedDriver {
  driver: BlobDriver;
  /** The stored bytes under key, read from where the driver keeps them (the file; the object over S3). */
  atRest(key: string): Promise<Buffer>;
  /** The filesystem driver's root directory. */
  root?: string;
  close(): Promise<void>;
}

/** Every blob driver, for suites that run against each (`describe.each(BLOB_DRIVERS)`). */
export const BLOB_DRIVERS: Array<{ name: string; open: () => Promise<OpenedDriver> }> = [
  {
    name: 'filesystem',
    async open() {
      const root = mkdtempSync(path.join(tmpdir(), 'tributary-blobs-'));
      return {
        driver: new FsBlobStore(root),
        root,
        atRest: (key) => readFile(path.join(root, ...key.split('/'))),
        async close() {
          rmSync(root, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'S3 (s3rver over HTTPS)',
    async open() {
      const server = await startS3Server();
      const driver = new S3BlobStore(server.settings);
      return {
        driver,
        atRest: async (key) => (await driver.get(key))!,
        async close() {
          driver.close();
          await server.close();
        },
      };
    },
  },
];
