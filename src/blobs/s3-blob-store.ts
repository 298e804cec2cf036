import { readFileSync } from 'node:fs';
import { Agent } from 'node:https';
import { rootCertificates } from 'node:tls';
import { DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { S3Settings } from '../config.ts';
import type { BlobDriver } from './blob-driver.ts';
import { checkBlobKey, checkBlobPrefix } from './blob-keys.ts';

/** A stuck store fails a request instead of holding a job or a download open. */
const CONNECTION_TIMEOUT_MS = 5_000;
const REQUEST_TIMEOUT_MS = 60_000;
/** DeleteObjects takes at most 1,000 keys, and ListObjectsV2 returns at most 1,000 a page. */
const PAGE = 1_000;

/**
 * Blobs as objects of one bucket of an S3-compatible store (AWS, MinIO, Garage, Ceph, R2…), a key
 * per object. Checksums are sent and checked only where the API requires them, since stores other
 * than AWS do not all know the SDK's default CRC checksums (docs/decisions/statements-blob-store.md).
 */
export class S3BlobStore implements BlobDriver {
  readonly #client: S3Client;
  readonly #bucket: string;

  constructor(settings: S3Settings) {
    const ca = settings.caFile ? [...rootCertificates, readFileSync(settings.caFile, 'utf8')] : undefined;
    this.#bucket = settings.bucket;
    this.#client = new S3Client({
      endpoint: settings.endpoint,
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      requestHandler: new NodeHttpHandler({
        connectionTimeout: CONNECTION_TIMEOUT_MS,
        requestTimeout: REQUEST_TIMEOUT_MS,
        throwOnRequestTimeout: true,
        httpsAgent: new Agent({ keepAlive: true, ca }),
      }),
    });
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    await this.#client.send(new PutObjectCommand({ Bucket: this.#bucket, Key: checkBlobKey(key), Body: bytes, ContentLength: bytes.length }));
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      const object = await this.#client.send(new GetObjectCommand({ Bucket: this.#bucket, Key: checkBlobKey(key) }));
      return Buffer.from(await object.Body!.transformToByteArray());
    } catch (error) {
      if (error instanceof NoSuchKey) return null;
      throw error;
    }
  }

  async deletePrefix(prefix: string): Promise<void> {
    checkBlobPrefix(prefix);
    for await (const page of this.#pages(prefix)) {
      if (page.length === 0) continue;
      const { Errors } = await this.#client.send(
        new DeleteObjectsCommand({ Bucket: this.#bucket, Delete: { Objects: page.map((Key) => ({ Key })), Quiet: true } }),
      );
      if (Errors && Errors.length > 0) {
        const first = Errors[0]!;
        throw new Error(`S3 DeleteObjects under ${prefix}: ${Errors.length} not deleted, first ${first.Key}: ${first.Code} ${first.Message}`);
      }
    }
  }

  async *keys(prefix: string): AsyncIterable<string> {
    if (prefix !== '') checkBlobPrefix(prefix);
    for await (const page of this.#pages(prefix)) yield* page;
  }

  /** Closes the client's kept-alive connections. */
  close(): void {
    this.#client.destroy();
  }

  /** The keys under prefix, a ListObjectsV2 page (up to 1,000) at a time. */
  async *#pages(prefix: string): AsyncIterable<string[]> {
    let token: string | undefined;
    do {
      const listed = await this.#client.send(
        new ListObjectsV2Command({ Bucket: this.#bucket, Prefix: prefix === '' ? undefined : prefix, MaxKeys: PAGE, ContinuationToken: token }),
      );
      yield (listed.Contents ?? []).map((object) => object.Key!);
      token = listed.IsTruncated ? listed.NextContinuationToken : undefined;
    } while (token);
  }
}
