import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Platform } from '../../../common/domain';
import type { AppContext } from '../../context';
import { ERROR_CODES } from '../../../common/api/errors';
import { HttpError, notFound } from '../../http-error';
import { ArtifactMissingError, type ByteRange } from '../../integrations/storage';
import { attachment } from '../licence-files/routes';

/**
 * Sends an artifact's bytes the way download clients expect (docs/decisions/038): the whole file or
 * one byte range, validators for resuming and revalidating, the file name as an attachment. One
 * function for both download routes. The bytes come from the portal's own stream, from nginx
 * (X-Accel-Redirect) or from the S3 store (a redirect to a presigned URL).
 */

export interface ArtifactToSend {
  fileName: string;
  storageKey: string;
  size: number;
  sha256: string;
  createdAt: string;
  platform: Platform;
}

/**
 * Kept by private caches and revalidated with the ETag before use; never by shared ones (the answer
 * depends on a session or a secret). Resuming needs only the validators, which no-cache keeps.
 */
export const DOWNLOAD_CACHE_CONTROL = 'private, no-cache';

/** What `npm install <url>` and browsers accept; npm reads a tarball whatever its type says. */
function contentTypeOf(artifact: ArtifactToSend): string {
  return artifact.platform === 'npm' && /\.t(?:ar\.)?gz$/i.test(artifact.fileName)
    ? 'application/gzip'
    : 'application/octet-stream';
}

/** The artifact's strong ETag: its sha256, so any two copies of the same bytes agree. */
const etagOf = (sha256: string) => `"${sha256}"`;

/**
 * The artifact's `Repr-Digest` (RFC 9530): its sha256, the digest of the whole file whatever part an
 * answer carries, as the RFC's byte sequence (base64 between colons). Sent on every answer about the
 * file, 304 and the redirect to storage included (docs/decisions/080).
 */
const reprDigestOf = (sha256: string) => `sha-256=:${Buffer.from(sha256, 'hex').toString('base64')}:`;

/** If-None-Match: weak comparison (RFC 9110 13.1.2), `*` matches any current representation. */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const value = tag.trim().replace(/^W\//, '');
    return value === '*' || value === etag;
  });
}

type RangeAnswer = { kind: 'whole' } | { kind: 'part'; range: ByteRange } | { kind: 'unsatisfiable' };

/**
 * The one byte range a request asks for (RFC 9110 14.1.2). A header that is not a byte-range header
 * is ignored, as is a request for several ranges: the whole file answers both, which every client
 * takes (multipart/byteranges is for viewers fetching pieces, not for downloads).
 */
function parseRange(header: string | undefined, size: number): RangeAnswer {
  if (!header) return { kind: 'whole' };
  const match = /^bytes=\s*(\d*)-(\d*)\s*$/i.exec(header.trim());
  if (!match) return { kind: 'whole' };
  const [, first, last] = match;
  if (first === '' && last === '') return { kind: 'whole' };
  if (first === '') {
    // a suffix: the last N bytes
    const length = Number(last);
    if (length === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'part', range: { start: Math.max(0, size - length), end: size - 1 } };
  }
  const start = Number(first);
  if (!Number.isSafeInteger(start) || start >= size) return { kind: 'unsatisfiable' };
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (end < start) return { kind: 'whole' };
  return { kind: 'part', range: { start, end } };
}

/** If-Range: the range applies only while the validator still names these bytes (strong comparison). */
function rangeStillValid(ifRange: string | undefined, etag: string, lastModified: string): boolean {
  if (!ifRange) return true;
  const value = ifRange.trim();
  if (value.startsWith('"') || value.startsWith('W/')) return value === etag;
  return value === lastModified;
}

/** Whether the answer is a download to record: the whole file, or a range from its first byte. */
function countsAsDownload(answer: RangeAnswer): boolean {
  return answer.kind === 'whole' || (answer.kind === 'part' && answer.range.start === 0);
}

/** A header's single value (a repeated header counts as absent rather than picking one). */
export function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? undefined : value;
}

/**
 * Answers the request with the artifact. `onServed` is called when the answer starts a download (not
 * for HEAD, 304, 416 or a range that resumes one), before the answer goes: it queues the download's
 * record durably (one insert), so no answered download goes unrecorded.
 */
export async function sendArtifact(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  artifact: ArtifactToSend,
  onServed: () => Promise<void>,
): Promise<FastifyReply> {
  const etag = etagOf(artifact.sha256);
  const lastModified = new Date(artifact.createdAt).toUTCString();
  reply.header('ETag', etag).header('Last-Modified', lastModified).header('Repr-Digest', reprDigestOf(artifact.sha256));

  if (noneMatch(single(request.headers['if-none-match']), etag)) return reply.status(304).send();

  const isHead = request.method === 'HEAD';
  const requested = parseRange(single(request.headers.range), artifact.size);
  const answer = rangeStillValid(single(request.headers['if-range']), etag, lastModified)
    ? requested
    : ({ kind: 'whole' } as const);
  const served = async () => {
    if (!isHead && countsAsDownload(answer)) await onServed();
  };

  const presigned = await ctx.storage.presignedUrl(artifact.storageKey, {
    fileName: artifact.fileName,
    expiresInSeconds: ctx.config.s3PresignSeconds,
  });
  if (presigned) {
    await served();
    return reply.redirect(presigned, 302);
  }

  const accel = ctx.config.downloadAccelRedirect;
  if (accel) {
    // nginx answers Range and If-Range itself from the file; the request's Range still says whether it counts
    await served();
    const target = accel + artifact.storageKey.split('/').map(encodeURIComponent).join('/');
    return fileHeaders(reply, artifact).header('X-Accel-Redirect', target).send();
  }

  if (answer.kind === 'unsatisfiable') {
    throw new HttpError(416, ERROR_CODES.rangeNotSatisfiable, RANGE_NOT_SATISFIABLE, undefined, {
      'Content-Range': `bytes */${artifact.size}`,
    });
  }
  const range = answer.kind === 'part' ? answer.range : undefined;
  const length = range ? range.end - range.start + 1 : artifact.size;
  let body: Readable;
  if (isHead || length === 0) {
    // an empty stream keeps the Content-Length below (Fastify sets 0 for a HEAD without a stream)
    body = Readable.from([]);
  } else {
    try {
      body = await ctx.storage.read(artifact.storageKey, range);
    } catch (error) {
      if (!(error instanceof ArtifactMissingError)) throw error;
      ctx.log.error({ storageKey: artifact.storageKey }, 'an artifact has no stored bytes');
      throw notFound();
    }
  }
  if (range) reply.status(206).header('Content-Range', `bytes ${range.start}-${range.end}/${artifact.size}`);
  fileHeaders(reply, artifact).header('Content-Length', String(length));
  await served();
  return reply.send(body);
}

const RANGE_NOT_SATISFIABLE = 'The requested range is beyond the end of the file';

function fileHeaders(reply: FastifyReply, artifact: ArtifactToSend): FastifyReply {
  return reply
    .header('Accept-Ranges', 'bytes')
    .header('Content-Disposition', attachment(artifact.fileName))
    .header('Content-Type', contentTypeOf(artifact));
}
