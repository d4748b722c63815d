import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import { type Artifact, MAX_ARTIFACT_FILE_NAME } from '../../../common/api/catalogue';
import { ERROR_CODES } from '../../../common/api/errors';
import type { Platform } from '../../../common/domain';
import type { AppContext } from '../../context';
import { nowIso } from '../../db';
import { badRequest, HttpError, notFound } from '../../http-error';
import { ArtifactTooLargeError } from '../../integrations/storage';

/**
 * A version's artifacts (docs/decisions/036): at most one per platform, uploaded as a stream to a
 * fresh storage key; the row is inserted (replacing the previous one) only once the bytes are
 * stored, and the previous object removed after. A published version's artifacts stay as they are.
 */

export const VERSION_NOT_FOUND = 'Version not found';
export const PUBLISHED = "A published version's artifacts cannot be changed";

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
    const message = `a file name without a path, of 1 to ${MAX_FILE_NAME} characters`;
    throw badRequest(`fileName: ${message}`, [{ path: 'fileName', message }]);
  }
  return trimmed;
}

export const defaultFileName = (productKey: string, semVer: string, platform: Platform) =>
  `${productKey}-${semVer}-${platform}.${EXTENSIONS[platform]}`;

/** `1.0.0+build.5` in a storage key: only the characters keys allow. */
const keyPart = (value: string) => value.replace(/[^A-Za-z0-9._-]/g, '_');

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

async function versionOf(ctx: AppContext, versionId: number) {
  const version = await ctx.db
    .selectFrom('versions')
    .select(['id', 'productKey', 'semVer', 'published'])
    .where('id', '=', versionId)
    .executeTakeFirst();
  if (!version) throw notFound(VERSION_NOT_FOUND);
  return version;
}

/** The version's product, for the access rule; null when there is no such version. */
export async function productOfVersion(ctx: AppContext, versionId: number): Promise<string | null> {
  const row = await ctx.db.selectFrom('versions').select('productKey').where('id', '=', versionId).executeTakeFirst();
  return row?.productKey ?? null;
}

export async function uploadArtifact(
  ctx: AppContext,
  input: { versionId: number; platform: Platform; fileName: string | null; body: Readable; by: string },
): Promise<Artifact> {
  const version = await versionOf(ctx, input.versionId);
  if (version.published) throw published();
  const fileName = input.fileName ?? defaultFileName(version.productKey, version.semVer, input.platform);
  const key = [keyPart(version.productKey), keyPart(version.semVer), input.platform, crypto.randomUUID()].join('/');
  const maxBytes = ctx.config.artifactMaxBytes;

  let stored;
  try {
    stored = await ctx.storage.put(key, input.body, { maxBytes });
  } catch (error) {
    if (error instanceof ArtifactTooLargeError) throw tooLarge(maxBytes);
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
      const locked = await trx
        .updateTable('versions')
        .set({ updatedAt: nowIso() })
        .where('id', '=', version.id)
        .where('published', '=', 0)
        .executeTakeFirst();
      if (Number(locked.numUpdatedRows) === 0) throw published();
      const previous = await trx
        .selectFrom('artifacts')
        .select(['id', 'storageKey'])
        .where('versionId', '=', version.id)
        .where('platform', '=', input.platform)
        .executeTakeFirst();
      // a new row, not an update: the downloads of the previous file keep their record and lose the link
      if (previous) await trx.deleteFrom('artifacts').where('id', '=', previous.id).execute();
      previousKey = previous?.storageKey ?? null;
      return trx
        .insertInto('artifacts')
        .values({
          versionId: version.id,
          platform: input.platform,
          fileName,
          storageKey: key,
          size: stored.size,
          sha256: stored.sha256,
          createdAt: nowIso(),
        })
        .returning(['id', 'platform', 'fileName', 'size', 'sha256', 'createdAt'])
        .executeTakeFirstOrThrow();
    });
  } catch (error) {
    await removeQuietly(ctx, key);
    throw error;
  }
  if (previousKey) await removeQuietly(ctx, previousKey);
  ctx.log.info(
    { versionId: version.id, platform: input.platform, size: artifact.size, sha256: artifact.sha256, by: input.by },
    'artifact uploaded',
  );
  return { ...artifact, size: Number(artifact.size) };
}

export async function deleteArtifact(ctx: AppContext, input: { versionId: number; platform: Platform; by: string }) {
  const version = await versionOf(ctx, input.versionId);
  if (version.published) throw published();
  const row = await ctx.db
    .deleteFrom('artifacts')
    .where('versionId', '=', version.id)
    .where('platform', '=', input.platform)
    .returning('storageKey')
    .executeTakeFirst();
  if (!row) throw notFound('Artifact not found');
  await removeQuietly(ctx, row.storageKey);
  ctx.log.info({ versionId: version.id, platform: input.platform, by: input.by }, 'artifact deleted');
}

/** An object left behind costs disk space, not correctness: a failure to remove it is logged. */
async function removeQuietly(ctx: AppContext, key: string) {
  try {
    await ctx.storage.remove(key);
  } catch (error) {
    ctx.log.warn({ err: error, key }, 'could not remove a stored artifact');
  }
}
