import path from 'node:path';
import type { Config } from '../config.ts';
import type { BlobDriver } from './blob-driver.ts';
import { FsBlobStore } from './fs-blob-store.ts';

/** The driver BLOB_STORE names; the AWS SDK is loaded only when it is `s3`. */
export async function openBlobDriver(config: Pick<Config, 'blobStore' | 'dataDir'>): Promise<BlobDriver & { close?(): void }> {
  if (config.blobStore.driver === 'fs') return new FsBlobStore(blobDirectory(config.dataDir));
  const { S3BlobStore } = await import('./s3-blob-store.ts');
  return new S3BlobStore(config.blobStore.s3);
}

/** Where BLOB_STORE=fs keeps blobs. */
export function blobDirectory(dataDir: string): string {
  return path.join(dataDir, 'blobs');
}
