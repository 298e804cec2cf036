export interface BlobStore {
  /** Stores bytes under key (overwrites). Keys look like `profiles/<profileId>/statements/<statementId>.pdf`. */
  put(key: string, bytes: Buffer): Promise<void>;
  /** The bytes under key, or null when there are none. */
  get(key: string): Promise<Buffer | null>;
  /** Deletes every blob whose key starts with prefix (a profile's deletion: `profiles/<profileId>/`). */
  deletePrefix(prefix: string): Promise<void>;
}
