import type { BlobStore } from './blob-store.ts';

/** Where bytes are kept as given (the filesystem, an S3 bucket); the service wraps one in EncryptedBlobStore. */
export interface BlobDriver extends BlobStore {
  /** Every key that starts with prefix (`''`: every key), in no set order; for re-encryption's walk. */
  keys(prefix: string): AsyncIterable<string>;
}
