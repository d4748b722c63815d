import type { Readable } from 'node:stream';
import { type Artifact, CATALOGUE_ERRORS, MAX_ARTIFACT_FILE_NAME } from '../../../common/api/catalogue';
import { ERROR_CODES } from '../../../common/api/errors';
import type { Platform } from '../../../common/domain';
import { type Actor, actorLabel } from '../../actor';
import type { AppContext } from '../../context';
import { badRequest, HttpError, notFound } from '../../http-error';
import { ArtifactTooLargeError } from '../../integrations/storage';
import { auditActorOf, insertAuditEntry } from '../audit/repo';
import { artifactsMayChange } from './policy';
import * as repo from './repo';
import { artifactStorageKey } from './stored-files';
import { invalidField } from '../../validation';

/**
 * A version's artifacts (docs/decisions/036): at most one per platform, uploaded as a stream to a
 * fresh storage key; the row is inserted (replacing the previous one) only once the bytes are
 * stored, and the previous object removed after. A published version's artifacts stay as they are.
 */

const VERSION_NOT_FOUND = 'Version not found';
const PUBLISHED = "A published version's artifacts cannot be changed";

/** What the default file names end with, by platform. */
const EXTENSIONS: Record<Platform, string> = {
  windows: 'zip',
  linux: 'tar.gz',
  osx: 'zip',
  docker: 'tar',
  npm: 'tgz',
  generic: 'zip',
};

const MAX_FILE_NAME = MAX_ARTIFACT_FILE_NAME;

/** A file name as given (no path, no control character, at most 255 characters); 400 otherwise. */
export function checkFileName(name: string): string {
  const trimmed = name.trim();
  const bad =
    trimmed.length === 0 ||
    trimmed.length > MAX_FILE_NAME ||
    /[/\\]/.test(trimmed) ||
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f\u007f]/.test(trimmed) ||
    trimmed === '.' ||
    trimmed === '..';
  if (bad) {
    throw invalidField('fileName', CATALOGUE_ERRORS.fileName, { max: MAX_FILE_NAME });
  }
  return trimmed;
}

const defaultFileName = (productKey: string, semVer: string, platform: Platform) =>
  `${productKey}-${semVer}-${platform}.${EXTENSIONS[platform]}`;

export const tooLarge = (maxBytes: number) =>
  new HttpError(
    413,
    ERROR_CODES.payloadTooLarge,
    `The file is too large: at most ${maxBytes} bytes (${formatBytes(maxBytes)})`,
    undefined,
    { Connection: 'close' },
  );

function formatBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[unit]}`;
}

const published = () => new HttpError(409, ERROR_CODES.versionPublished, PUBLISHED);

/** A write refused for want of space: the disk is full (ENOSPC) or the account's quota is used up (EDQUOT). */
function isStorageFull(error: unknown): error is NodeJS.ErrnoException & { code: string } {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

const storageFull = () =>
  new HttpError(507, ERROR_CODES.storageFull, 'The artifact storage has no space left: the file was not stored');

/** The version whose files are to change: 404 when there is none, 409 once it is published (the policy). */
async function changeableVersionOf(ctx: AppContext, versionId: number) {
  const row = await repo.findVersion(ctx.db, versionId);
  if (!row) throw notFound(VERSION_NOT_FOUND);
  const version = { ...row, published: row.published === 1 };
  if (!artifactsMayChange(version)) throw published();
  return version;
}

/**
 * Stores a version's artifact of a platform (a product manager's upload, or a release pipeline's
 * through a product token) and writes its `uploadArtifact` entry, which names that user or token.
 */
export async function uploadArtifact(
  ctx: AppContext,
  actor: Actor,
  input: { versionId: number; platform: Platform; fileName: string | null; body: Readable },
): Promise<Artifact> {
  const version = await changeableVersionOf(ctx, input.versionId);
  const fileName = input.fileName ?? defaultFileName(version.productKey, version.semVer, input.platform);
  const key = artifactStorageKey(version.productKey, version.semVer, input.platform);
  const maxBytes = ctx.config.artifactMaxBytes;

  let stored;
  try {
    stored = await ctx.storage.put(key, input.body, { maxBytes });
  } catch (error) {
    if (error instanceof ArtifactTooLargeError) throw tooLarge(maxBytes);
    if (isStorageFull(error)) {
      // the operator's to fix: an error line, without the storage's paths or the file's name
      ctx.log.error(
        { code: error.code, storage: ctx.storage.kind, versionId: input.versionId, platform: input.platform },
        'artifact storage has no space left: the upload was not stored',
      );
      throw storageFull();
    }
    // the body's own answer, such as the 408 of a body that stopped arriving
    if (error instanceof HttpError) throw error;
    if (input.body.destroyed && !input.body.readableEnded) {
      throw badRequest('The upload was interrupted before the file was complete');
    }
    throw error;
  }

  let previousKey: string | null = null;
  let artifact: Artifact;
  try {
    artifact = await ctx.db.transaction().execute(async (trx) => {
      // the version row is the lock: uploads of one version take their turns, and a version
      // published while the bytes streamed keeps its artifacts
      if (!(await repo.lockUnpublishedVersion(trx, version.id))) throw published();
      // a new row, not an update: the downloads of the previous file keep their record and lose the link
      const replaced = await repo.replaceArtifact(trx, {
        versionId: version.id,
        platform: input.platform,
        fileName,
        storageKey: key,
        size: stored.size,
        sha256: stored.sha256,
      });
      previousKey = replaced.previousKey;
      const row = { ...replaced.artifact, size: Number(replaced.artifact.size) };
      await insertAuditEntry(trx, {
        customerId: null,
        by: auditActorOf(actor),
        action: 'uploadArtifact',
        data: {
          productKey: version.productKey,
          versionId: version.id,
          productVersion: version.semVer,
          productPlatform: input.platform,
          artifactId: row.id,
          fileName: row.fileName,
          size: row.size,
          sha256: row.sha256,
          replaced: previousKey !== null,
        },
      });
      return row;
    });
  } catch (error) {
    await removeQuietly(ctx, key);
    throw error;
  }
  if (previousKey) await removeQuietly(ctx, previousKey);
  ctx.log.info(
    {
      versionId: version.id,
      platform: input.platform,
      size: artifact.size,
      sha256: artifact.sha256,
      by: actorLabel(actor),
    },
    'artifact uploaded',
  );
  return artifact;
}

/** Removes an unpublished version's artifact of a platform, with a `deleteArtifact` entry. */
export async function deleteArtifact(ctx: AppContext, actor: Actor, input: { versionId: number; platform: Platform }) {
  const version = await changeableVersionOf(ctx, input.versionId);
  const storageKey = await ctx.db.transaction().execute(async (trx) => {
    const removed = await repo.deleteArtifact(trx, version.id, input.platform);
    if (removed === null) throw notFound('Artifact not found');
    await insertAuditEntry(trx, {
      customerId: null,
      by: auditActorOf(actor),
      action: 'deleteArtifact',
      data: {
        productKey: version.productKey,
        versionId: version.id,
        productVersion: version.semVer,
        productPlatform: input.platform,
      },
    });
    return removed;
  });
  await removeQuietly(ctx, storageKey);
  ctx.log.info({ versionId: version.id, platform: input.platform, by: actorLabel(actor) }, 'artifact deleted');
}

/** An object left behind costs disk space, not correctness: a failure to remove it is logged. */
async function removeQuietly(ctx: AppContext, key: string) {
  try {
    await ctx.storage.remove(key);
  } catch (error) {
    ctx.log.warn({ err: error, key }, 'could not remove a stored artifact');
  }
}
