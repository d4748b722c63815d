import crypto from 'node:crypto';
import { ERROR_CODES } from '../../../common/api/errors';
import type { Platform } from '../../../common/domain';
import type { Locale } from '../../../common/roles';
import { utcToday } from '../../../common/licence-status';
import type { NotificationMessageKey } from '../../../common/notifications';
import { type Actor, originOf, signedInUser } from '../../actor';
import type { AppContext } from '../../context';
import { nowIso } from '../../db';
import { forbidden, HttpError, notFound } from '../../http-error';
import type { CustomerAccess } from '../../policy';
import { anonymousAuditActor, auditUser, insertAuditEntry } from '../audit/repo';
import { queueDownloadDigest } from '../notifications/digest';
import { emitNotification } from '../notifications/events';
import { emitWebhook } from '../webhooks/deliver';
import { findLicenceBySecret, findLicenceIdOf, findLicence, type LicenceRow } from '../licences/repo';
import { LICENCE_EXPIRED } from '../licence-files/licence-file';
import { licenceAllowsDownload, licenceCovers, mayDownload, typesOpenTo } from './policy';
import { artifactsOf } from '../catalogue/repo';
import { buildFeed, buildSums, FEED_LENGTH, type FeedVersion } from './feed';
import * as repo from './repo';
import type { ArtifactToSend } from './serve';

/**
 * Which artifact a download request may have (docs/decisions/038). Anything not allowed or not there
 * is one 404, the same body whatever the reason, so a refusal reveals nothing; only a licence past
 * its grace period says so (403 licence_expired), as the licence file does, since its holder knows
 * it exists.
 */

export const DOWNLOAD_NOT_FOUND = 'This download does not exist';

/** Notification message keys (rendered in the reader's language when listed, as notification.newVersion). */
export const DOWNLOAD_MESSAGE = 'notification.productDownload' satisfies NotificationMessageKey;
export const FIRST_DOWNLOAD_MESSAGE = 'notification.firstProductDownload' satisfies NotificationMessageKey;

/** What a served download is recorded with. */
interface DownloadGrant {
  licence: Pick<LicenceRow, 'id' | 'customerId' | 'productKey' | 'productName'>;
  version: { id: number; semVer: string };
  artifact: ArtifactToSend & { id: number };
  /** null for the secret URL, which is anonymous */
  user: { id: number; email: string } | null;
}

const refused = () => notFound(DOWNLOAD_NOT_FOUND);

function grantOf(
  licence: LicenceRow,
  row: repo.VersionArtifactRow | undefined,
  platform: Platform,
  user: DownloadGrant['user'],
): DownloadGrant {
  if (
    !row ||
    !licenceCovers(licence, { productKey: row.productKey, published: row.published === 1, type: row.type }) ||
    row.artifactId === null ||
    row.fileName === null ||
    row.storageKey === null ||
    row.size === null ||
    row.sha256 === null ||
    row.artifactCreatedAt === null
  ) {
    throw refused();
  }
  refuseExpired(licence);
  return {
    licence,
    version: { id: row.versionId, semVer: row.semVer },
    artifact: {
      id: row.artifactId,
      platform,
      fileName: row.fileName,
      storageKey: row.storageKey,
      size: Number(row.size),
      sha256: row.sha256,
      createdAt: row.artifactCreatedAt,
    },
    user,
  };
}

/**
 * `GET /api/download/{platform}?customerId&versionId`: the caller's role in the customer must
 * download (mayDownload), the customer's licence of the version's product cover the version and
 * still serve downloads (downloads/policy.ts), and the version have an artifact for the platform.
 */
export async function authorizeDownload(
  ctx: AppContext,
  actor: Actor,
  input: { customerAccess: CustomerAccess; platform: Platform; versionId: number },
): Promise<DownloadGrant> {
  const { user } = signedInUser(actor);
  // the route's rule asked the same of the role; the policy says it once for both
  if (!mayDownload(input.customerAccess)) throw forbidden();
  const row = await repo.findVersionArtifact(ctx.db, input.versionId, input.platform);
  if (!row) throw refused();
  const licenceId = await findLicenceIdOf(ctx.db, input.customerAccess.customer.id, row.productKey);
  const licence = licenceId === undefined ? undefined : await findLicence(ctx.db, licenceId);
  if (!licence) throw refused();
  return grantOf(licence, row, input.platform, { id: user.id, email: user.email });
}

const sha256 = (text: string) => crypto.createHash('sha256').update(text, 'utf8').digest();

/** Whether `given` is the licence's secret, in time that does not depend on where they differ. */
function secretMatches(given: string, stored: string): boolean {
  return crypto.timingSafeEqual(sha256(given), sha256(stored));
}

/**
 * The licence whose download secret `secret` is, if it is one of `productKey` (else the one 404);
 * null for a secret that names no licence (the caller counts those).
 */
async function licenceOfSecret(
  ctx: AppContext,
  input: { productKey: string; secret: string },
): Promise<LicenceRow | null> {
  const licence = await findLicenceBySecret(ctx.db, input.secret);
  if (!licence || !secretMatches(input.secret, licence.downloadSecret)) return null;
  if (licence.productKey !== input.productKey) throw refused();
  return licence;
}

const refuseExpired = (licence: LicenceRow) => {
  if (!licenceAllowsDownload(licence, utcToday()))
    throw new HttpError(403, ERROR_CODES.licenceExpired, LICENCE_EXPIRED);
};

/**
 * `GET /api/get/{platform}/{productKey}/{semVer}/?secret=`: the licence whose download secret it is,
 * of that product; `latest` is the newest published version the licence allows that has an artifact
 * for the platform. Returns null for a secret that names no licence (the caller counts those).
 */
export async function authorizeSecretDownload(
  ctx: AppContext,
  _actor: Actor,
  input: { platform: Platform; productKey: string; semVer: string; secret: string },
): Promise<DownloadGrant | null> {
  const licence = await licenceOfSecret(ctx, input);
  if (!licence) return null;
  const row =
    input.semVer === 'latest'
      ? await repo.findLatestDownloadable(ctx.db, licence.productKey, typesOpenTo(licence), input.platform)
      : await repo.findVersionArtifactBySemVer(ctx.db, licence.productKey, input.semVer, input.platform);
  return grantOf(licence, row, input.platform, null);
}

/**
 * `GET /api/get/sums/{productKey}/{semVer}/?secret=`: the `SHA256SUMS` text of the version's files,
 * with the secret URL's rules (docs/decisions/080): a version the licence covers, with at least one
 * file, a licence that still serves downloads. `latest` is the newest such version that has a file.
 * Returns null for a secret that names no licence (the caller counts those).
 */
export async function versionSums(
  ctx: AppContext,
  _actor: Actor,
  input: { productKey: string; semVer: string; secret: string },
): Promise<string | null> {
  const licence = await licenceOfSecret(ctx, input);
  if (!licence) return null;
  const version =
    input.semVer === 'latest'
      ? await repo.findLatestWithArtifacts(ctx.db, licence.productKey, typesOpenTo(licence))
      : await repo.findVersionBySemVer(ctx.db, licence.productKey, input.semVer);
  if (!version || !licenceCovers(licence, { ...version, published: version.published === 1 })) throw refused();
  const artifacts = await artifactsOf(ctx.db, [version.id]);
  if (artifacts.length === 0) throw refused();
  refuseExpired(licence);
  return buildSums(artifacts);
}

/**
 * `GET /api/feeds/{productKey}.atom?secret=`: the Atom feed of the newest published versions the
 * licence's access level opens, each with its files' secret URLs and its checksums' (docs/decisions/080).
 * Past its grace period the licence serves no feed (403 licence_expired), as it serves no file.
 * Returns null for a secret that names no licence (the caller counts those).
 */
export async function versionFeed(
  ctx: AppContext,
  _actor: Actor,
  input: { productKey: string; secret: string; locale: Locale },
): Promise<{ xml: string; etag: string } | null> {
  const licence = await licenceOfSecret(ctx, input);
  if (!licence) return null;
  refuseExpired(licence);
  const rows = await repo.listPublishedVersions(ctx.db, licence.productKey, typesOpenTo(licence), FEED_LENGTH);
  const artifacts = await artifactsOf(
    ctx.db,
    rows.map((row) => row.id),
  );
  const versions: FeedVersion[] = rows.map((row) => ({
    ...row,
    artifacts: artifacts
      .filter((artifact) => artifact.versionId === row.id)
      .map((artifact) => ({ ...artifact, size: Number(artifact.size) })),
  }));
  return buildFeed({
    baseUrl: ctx.config.baseUrl,
    locale: input.locale,
    licence,
    secret: licence.downloadSecret,
    versions,
    emptyUpdated: licence.startDate,
  });
}

/** The job that records a served download (server/job-kinds.ts declares it). */
export const DOWNLOAD_RECORD_JOB = 'downloads.record';

/** What a download's record needs, as its job carries it (plain data: the job's payload is JSON). */
export interface DownloadRecord {
  licence: DownloadGrant['licence'];
  version: DownloadGrant['version'];
  artifact: { id: number; platform: DownloadGrant['artifact']['platform'] };
  user: DownloadGrant['user'];
  ip: string | null;
  /** when it was served: the record's date, whenever the job runs */
  at: string;
}

declare module '../../jobs/types' {
  interface QueuedJobs {
    [DOWNLOAD_RECORD_JOB]: DownloadRecord;
  }
}

/**
 * Queues the record of a served download before the answer goes (one insert, no transfer waits for
 * more): a node killed right after answering leaves the job, which another node, or this one when it
 * comes back, runs. If even that insert fails (the database is unreachable), the download goes on and
 * the failure is logged.
 */
export async function recordServedDownload(
  ctx: AppContext,
  actor: Actor,
  input: { grant: DownloadGrant },
): Promise<void> {
  const { licence, version, artifact, user } = input.grant;
  const record: DownloadRecord = {
    licence: {
      id: licence.id,
      customerId: licence.customerId,
      productKey: licence.productKey,
      productName: licence.productName,
    },
    version: { id: version.id, semVer: version.semVer },
    artifact: { id: artifact.id, platform: artifact.platform },
    user: user ? { id: user.id, email: user.email } : null,
    ip: originOf(actor)?.ip ?? null,
    at: nowIso(),
  };
  try {
    await ctx.jobs.enqueue(ctx.db, DOWNLOAD_RECORD_JOB, record);
  } catch (error) {
    ctx.log.error({ err: error, licenceId: licence.id, artifactId: artifact.id }, 'a download was not recorded');
  }
}

/**
 * Records a served download (its job's work): its downloads row (through recordDownload, which keeps the
 * analytics' figures), the customer's audit entry, which moves the licence's latest download, the event
 * of the first download of a product under the licence (notifyFirstProductDownload) and the customer's
 * download digest (notifyProductDownload), both told once this commits. The entry's
 * actor is the grant's user, or an anonymous visitor for the secret URL, whoever else the request may
 * have been signed in as. Runs at least once: a node dying between its commit and the job's completion
 * records the download twice.
 */
export async function writeDownloadRecord(ctx: AppContext, _actor: Actor, record: DownloadRecord): Promise<void> {
  const { licence, version, artifact, user, ip, at } = record;
  await ctx.db.transaction().execute(async (trx) => {
    const first = !(await repo.hasDownloadedProduct(trx, licence.customerId, licence.productKey));
    const download = await repo.recordDownload(trx, {
      licenceId: licence.id,
      versionId: version.id,
      artifactId: artifact.id,
      userId: user?.id ?? null,
      ip,
      platform: artifact.platform,
      createdAt: at,
    });
    await insertAuditEntry(trx, {
      customerId: licence.customerId,
      by: user ? auditUser(user) : anonymousAuditActor,
      action: 'downloadArtifact',
      data: {
        productKey: licence.productKey,
        productName: licence.productName,
        productVersion: version.semVer,
        productPlatform: artifact.platform,
        licenceId: licence.id,
        ...(user ? {} : { anonymousDownload: true }),
      },
      createdAt: at,
    });
    // who asked for them hear of it: the first download at once, every download in a digest
    if (first) {
      await emitNotification(ctx, trx, {
        type: 'firstProductDownload',
        licenceId: licence.id,
        versionId: version.id,
        platform: artifact.platform,
        by: user?.email ?? null,
      });
    }
    await queueDownloadDigest(ctx, trx, { customerId: licence.customerId, downloadId: download.id });
    // each download, for the vendor's systems (people get a digest)
    await emitWebhook(ctx, trx, 'productDownload', {
      downloadId: download.id,
      licenceId: licence.id,
      customerId: licence.customerId,
      productKey: licence.productKey,
      semVer: version.semVer,
      platform: artifact.platform,
      by: user?.email ?? null,
      at,
    });
  });
}
