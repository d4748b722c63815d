import { formatDayMonthYear } from '../../../common/format';
import type { Locale } from '../../../common/roles';
import type { Actor } from '../../actor';
import type { AppContext } from '../../context';
import type { DB } from '../../db';
import { pageLink } from './events';
import * as digests from './digest-repo';
import { customerName, customerRecipients } from './recipients-repo';
import { insertNotification } from './repo';

/**
 * notifyProductDownload as a digest (docs/notifications.md): a download queues, for its customer, one
 * digest job at the end of a window (DOWNLOAD_DIGEST_MINUTES); more downloads meanwhile join it, since
 * one job per customer waits at a time. When it runs, each recipient gets one mail listing who
 * downloaded what since the last digest, and one notification per product version and platform: a CI
 * pipeline downloading every few minutes makes one mail an hour, not one per request.
 */
export const DOWNLOAD_DIGEST_JOB = 'notifications.downloadDigest';

/** A digest lists this many downloads at most; the rest go into the next one, queued at once. */
const DIGEST_MAX_DOWNLOADS = 200;

declare module '../../jobs/types' {
  interface QueuedJobs {
    [DOWNLOAD_DIGEST_JOB]: { customerId: number; fromDownloadId: number };
  }
}

/** Called in the transaction that records download `downloadId` of the customer. */
export async function queueDownloadDigest(
  ctx: AppContext,
  trx: DB,
  input: { customerId: number; downloadId: number; at?: Date },
): Promise<void> {
  const runAt = new Date((input.at ?? new Date()).getTime() + ctx.config.downloadDigestMinutes * 60_000);
  await ctx.jobs.enqueue(
    trx,
    DOWNLOAD_DIGEST_JOB,
    { customerId: input.customerId, fromDownloadId: input.downloadId },
    { singletonKey: `customer:${input.customerId}`, runAt },
  );
}

const timeOf = (at: string, locale: Locale) => `${formatDayMonthYear(at, locale)} ${at.slice(11, 16)} UTC`;

export async function sendDownloadDigest(
  ctx: AppContext,
  _actor: Actor,
  payload: { customerId: number; fromDownloadId: number },
): Promise<void> {
  const { customerId } = payload;
  let more = false;
  await ctx.db.transaction().execute(async (trx) => {
    // from the download that queued this job, or past the last digest if that went further
    const after = Math.max(await digests.lastDigested(trx, customerId), payload.fromDownloadId - 1);
    const rows = await digests.downloadsAfter(trx, customerId, after, DIGEST_MAX_DOWNLOADS);
    const customer = await customerName(trx, customerId);
    if (rows.length === 0 || !customer) return;
    await digests.markDigested(trx, customerId, rows[rows.length - 1].id);
    more = rows.length === DIGEST_MAX_DOWNLOADS;

    const to = await customerRecipients(trx, { customerId, flag: 'notifyProductDownload' });
    const groups = new Map<string, (typeof rows)[number]>();
    for (const row of rows) groups.set(`${row.productKey}\u0000${row.semVer}\u0000${row.platform}`, row);
    const now = new Date().toISOString();
    for (const recipient of to) {
      for (const row of groups.values()) {
        await insertNotification(trx, {
          userId: recipient.userId,
          messageKey: 'notification.productDownload',
          params: {
            customerId,
            productKey: row.productKey,
            productName: row.productName,
            semVer: row.semVer,
            platform: row.platform ?? 'unknown',
          },
          createdAt: now,
        });
      }
      const locale = recipient.preferredLocale;
      await ctx.mail.send(
        {
          to: recipient.email,
          template: 'productDownloadDigest',
          locale,
          data: {
            fullName: recipient.fullName,
            link: pageLink(ctx, locale, `/accounts/${customerId}`),
            settingsLink: pageLink(ctx, locale, '/settings'),
            customerName: customer.name,
            downloads: rows.map((row) => ({
              productName: row.productName,
              semVer: row.semVer,
              platform: row.platform ?? 'unknown',
              by: row.userEmail,
              at: timeOf(row.createdAt, locale),
            })),
          },
        },
        trx,
      );
    }
  });
  if (more) {
    const next = (await digests.lastDigested(ctx.db, customerId)) + 1;
    await ctx.jobs.enqueue(
      ctx.db,
      DOWNLOAD_DIGEST_JOB,
      { customerId, fromDownloadId: next },
      { singletonKey: `customer:${customerId}` },
    );
  }
}
