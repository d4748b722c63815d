import { EXPIRES_SOON_MONTHS } from '../../../common/notifications';
import { addDays, addMonths, utcToday } from '../../../common/licence-status';
import type { Actor } from '../../actor';
import type { AppContext } from '../../context';
import { emitNotifications } from './events';
import { recordNotices } from './expiry-repo';

/** The daily run of licence end notices (server/jobs/index.ts schedules it). */
export const LICENCE_EXPIRY_SCHEDULE = 'notifications.licenceExpiry';

/**
 * An expired licence is told of if its end date is at most this many days past: a portal that was
 * down for a week still tells, one installed today does not tell of every licence that ever ended.
 */
const EXPIRED_LOOKBACK_DAYS = 7;

/**
 * notifyLicenseExpiresSoon and notifyLicenseExpired (docs/notifications.md): a licence whose end date is
 * within the next 3 months (today included) expires soon; one whose end date has passed (before today,
 * UTC) expired. Each is told once per licence and end date: a renewal moves the end date, which re-arms
 * both. Idempotent: a second run the same day tells nothing new.
 */
export async function queueExpiryNotices(
  ctx: AppContext,
  _actor: Actor,
  today: string = utcToday(),
): Promise<{ expiresSoon: number; expired: number }> {
  const now = new Date().toISOString();
  return ctx.db.transaction().execute(async (trx) => {
    const soon = await recordNotices(trx, {
      kind: 'expiresSoon',
      from: today,
      to: addMonths(today, EXPIRES_SOON_MONTHS),
      now,
    });
    const expired = await recordNotices(trx, {
      kind: 'expired',
      from: addDays(today, -EXPIRED_LOOKBACK_DAYS),
      to: addDays(today, -1),
      now,
    });
    await emitNotifications(ctx, trx, [
      ...soon.map((notice) => ({ type: 'licenseExpiresSoon' as const, ...notice })),
      ...expired.map((notice) => ({ type: 'licenseExpired' as const, ...notice })),
    ]);
    return { expiresSoon: soon.length, expired: expired.length };
  });
}
