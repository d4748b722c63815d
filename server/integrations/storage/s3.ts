import crypto from 'node:crypto';
import { type Readable, Transform } from 'node:stream';
import contentDisposition from 'content-disposition';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  NoSuchKey,
  S3Client,
  type S3ClientConfig,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  ArtifactMissingError,
  type ArtifactStorage,
  ArtifactTooLargeError,
  assertSafeKey,
  type StoredObject,
} from './types';

export interface S3Options {
  bucket: string;
  /** an S3-compatible server's URL (MinIO, Ceph, s3rver); AWS itself when absent */
  endpoint: string | null;
  region: string;
  /** both or neither: without them the SDK's default chain (environment, instance role) applies */
  accessKeyId: string | null;
  secretAccessKey: string | null;
  /** `bucket` in the path rather than the host name, as most self-hosted servers need */
  forcePathStyle: boolean;
}

/** parts of 8 MiB, two in flight: at most ~16 MiB of an upload in memory, whatever the file's size */
const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 2;

/**
 * Artifacts in an S3-compatible bucket (docs/decisions/036). An upload streams through a meter that
 * hashes and counts it and fails it past the limit; `Upload` sends it in parts and aborts the
 * multipart upload when the stream fails, so the bucket keeps nothing of a cut or oversized file, and
 * an object appears under its key only once complete. Downloads redirect to a presigned URL.
 */
export function createS3Storage(options: S3Options): ArtifactStorage {
  // The SDK warns once per process that its releases after January 2027 need Node 22; the portal
  // pins its SDK version, so the warning tells operators nothing they can act on.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const config: S3ClientConfig = {
    region: options.region,
    forcePathStyle: options.forcePathStyle,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.accessKeyId && options.secretAccessKey
      ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
      : {}),
  };
  const client = new S3Client(config);
  const Bucket = options.bucket;

  const keyOf = (key: string) => {
    assertSafeKey(key);
    return key;
  };

  return {
    kind: 's3',

    async put(key, body, { maxBytes }): Promise<StoredObject> {
      const Key = keyOf(key);
      const hash = crypto.createHash('sha256');
      let size = 0;
      const meter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          size += chunk.length;
          if (size > maxBytes) return callback(new ArtifactTooLargeError(maxBytes));
          hash.update(chunk);
          callback(null, chunk);
        },
      });
      // a failed or cut body fails the meter, whose error Upload's reader sees
      body.once('error', (error) => meter.destroy(error));
      body.once('close', () => {
        if (!body.readableEnded && !meter.destroyed) meter.destroy(new Error('the upload was cut'));
      });
      body.pipe(meter);
      const upload = new Upload({
        client,
        params: { Bucket, Key, Body: meter, ContentType: 'application/octet-stream' },
        partSize: PART_SIZE,
        queueSize: QUEUE_SIZE,
        leavePartsOnError: false,
      });
      try {
        await upload.done();
      } catch (error) {
        if (!body.destroyed) body.destroy();
        if (!meter.destroyed) meter.destroy();
        throw meter.errored ?? error;
      }
      return { size, sha256: hash.digest('hex') };
    },

    async read(key, range): Promise<Readable> {
      try {
        const answer = await client.send(
          new GetObjectCommand({
            Bucket,
            Key: keyOf(key),
            ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
          }),
        );
        return answer.Body as Readable;
      } catch (error) {
        if (error instanceof NoSuchKey || (error instanceof S3ServiceException && error.name === 'NoSuchKey')) {
          throw new ArtifactMissingError(key);
        }
        throw error;
      }
    },

    async *list() {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, ContinuationToken }));
        for (const object of page.Contents ?? []) {
          if (object.Key && object.LastModified) yield { key: object.Key, modifiedAt: object.LastModified };
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },

    async removeAbandonedUploads(olderThan) {
      let removed = 0;
      let KeyMarker: string | undefined;
      let UploadIdMarker: string | undefined;
      do {
        let page;
        try {
          page = await client.send(new ListMultipartUploadsCommand({ Bucket, KeyMarker, UploadIdMarker }));
        } catch (error) {
          // Some S3-compatible stores do not list uploads (s3rver, in the tests): the bucket's
          // lifecycle rule AbortIncompleteMultipartUpload then does it (docs/operations.md).
          if (error instanceof S3ServiceException && error.name === 'NotImplemented') return removed;
          throw error;
        }
        for (const upload of page.Uploads ?? []) {
          if (!upload.Key || !upload.UploadId || !upload.Initiated || upload.Initiated >= olderThan) continue;
          await client.send(new AbortMultipartUploadCommand({ Bucket, Key: upload.Key, UploadId: upload.UploadId }));
          removed++;
        }
        KeyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
        UploadIdMarker = page.IsTruncated ? page.NextUploadIdMarker : undefined;
      } while (KeyMarker);
      return removed;
    },

    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: keyOf(key) }));
    },

    localPath() {
      return null;
    },

    async presignedUrl(key, { fileName, expiresInSeconds }) {
      const command = new GetObjectCommand({
        Bucket,
        Key: keyOf(key),
        ResponseContentDisposition: attachment(fileName),
      });
      return getSignedUrl(client, command, { expiresIn: expiresInSeconds });
    },
  };
}

/** `attachment` with the name (RFC 6266): ASCII as is, any other in `filename*` after an ASCII fallback. */
function attachment(fileName: string): string {
  const ascii = fileName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '_');
  return contentDisposition(fileName, { fallback: ascii });
}
