import type { Readable } from 'node:stream';

/**
 * Where artifacts' bytes live (docs/decisions/036): a local folder by default, an S3-compatible bucket
 * when configured. The catalogue keeps the metadata (file name, size, sha256); storage only bytes.
 */
export interface StoredObject {
  size: number;
  /** hex sha256 of the bytes, computed while they streamed in */
  sha256: string;
}

export interface ByteRange {
  /** first byte, inclusive */
  start: number;
  /** last byte, inclusive */
  end: number;
}

export interface ArtifactStorage {
  readonly kind: 'local' | 's3';
  /**
   * Streams `body` to `key`, never holding the file in memory, and answers its size and sha256. Past
   * `maxBytes` it stops reading and throws ArtifactTooLargeError; when the body fails or is cut it
   * throws that error. Either way nothing is left behind and an object already at `key` is untouched:
   * the new bytes replace it only once complete.
   */
  put(key: string, body: Readable, options: { maxBytes: number }): Promise<StoredObject>;
  /** The object's bytes, or the inclusive range of them. Throws ArtifactMissingError when it is gone. */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** Removes the object; a missing one is not an error. */
  remove(key: string): Promise<void>;
  /** Every complete object of the store (not uploads under way), with when it was written. */
  list(): AsyncIterable<{ key: string; modifiedAt: Date }>;
  /**
   * Removes what uploads cut short left behind (a process killed mid-upload): the local store's
   * `.partial/` files, S3's incomplete multipart uploads, when last written before `olderThan`.
   * Answers how many went.
   */
  removeAbandonedUploads(olderThan: Date): Promise<number>;
  /** The file's absolute path for a local store (sendfile, X-Accel-Redirect); null for S3. */
  localPath(key: string): string | null;
  /**
   * A short-lived URL that serves the object directly, with the file name as Content-Disposition
   * (S3); null for a local store, whose bytes the portal (or nginx beside it) sends itself.
   */
  presignedUrl(key: string, options: { fileName: string; expiresInSeconds: number }): Promise<string | null>;
}

export class ArtifactTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the file is larger than ${maxBytes} bytes`);
    this.name = 'ArtifactTooLargeError';
  }
}

export class ArtifactMissingError extends Error {
  constructor(key: string) {
    super(`no stored object at ${key}`);
    this.name = 'ArtifactMissingError';
  }
}

/** Keys are the portal's own (`product/version/platform/uuid`); anything else is refused, so no key leaves the store. */
const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

export function assertSafeKey(key: string): void {
  if (!SAFE_KEY.test(key) || key.split('/').some((part) => part === '..' || part === '.') || key.length > 500) {
    throw new Error(`unsafe storage key: ${JSON.stringify(key)}`);
  }
}
