import { EXPIRES_SOON_MONTHS } from '../../../common/notifications';
import { addDays, addMonths, utcToday } from '../../../common/licence-status';
import type { Actor } from '../../actor';
import type { AppContext } from '../../context';
import { emitNotifications } from './events';
import { type NoticeCursor, recordNotices } from './expiry-repo';

/** The daily run of licence end notices (server/job-kinds.ts schedules it). */
export const LICENCE_EXPIRY_SCHEDULE = 'notifications.licenceExpiry';

/**
 * An expired licence is told of if its end date is at most this many days past: a portal that was
 * down for a week still tells, one installed today does not tell of every licence that ever ended.
 */
const EXPIRED_LOOKBACK_DAYS = 7;

/**
 * Licences told of per transaction: the first run over 1M licences tells of about 52,000, which in one
 * transaction held a SQLite portal's only connection, and its event loop, for 9 s (decision 089).
 */
const BATCH = 500;

/**
 * notifyLicenseExpiresSoon and notifyLicenseExpired (docs/notifications.md): a licence whose end date is
 * within the next 3 months (today included) expires soon; one whose end date has passed (before today,
 * UTC) expired. Each is told once per licence and end date: a renewal moves the end date, which re-arms
 * both. Idempotent: a second run the same day tells nothing new. In batches of BATCH licences, each its
 * own transaction.
 */
export async function queueExpiryNotices(
  ctx: AppContext,
  _actor: Actor,
  today: string = utcToday(),
): Promise<{ expiresSoon: number; expired: number }> {
  const now = new Date().toISOString();
  const ranges = [
    { kind: 'expiresSoon', type: 'licenseExpiresSoon', from: today, to: addMonths(today, EXPIRES_SOON_MONTHS) },
    { kind: 'expired', type: 'licenseExpired', from: addDays(today, -EXPIRED_LOOKBACK_DAYS), to: addDays(today, -1) },
  ] as const;
  const told = { expiresSoon: 0, expired: 0 };
  for (const range of ranges) {
    let after: NoticeCursor | null = null;
    do {
      // A batch's notices and the jobs that tell of them commit together: a run stopped midway
      // leaves no licence noticed and untold, and the next run takes up the rest.
      const batch = await ctx.db.transaction().execute(async (trx) => {
        const { noticed, last } = await recordNotices(trx, { ...range, now, limit: BATCH, after });
        await emitNotifications(
          ctx,
          trx,
          noticed.map((notice) => ({ type: range.type, ...notice })),
        );
        told[range.kind] += noticed.length;
        return last;
      });
      after = batch;
      // the rest of the process between two batches: SQLite's statements hold the event loop, and
      // its one connection is this transaction's while it lasts (decision 089)
      if (after) await new Promise((resolve) => setImmediate(resolve));
    } while (after);
  }
  return told;
}
