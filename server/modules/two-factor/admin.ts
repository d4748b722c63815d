import { ERROR_CODES } from '../../../common/api/errors';
import { type Actor, signedInUser } from '../../actor';
import type { AppContext } from '../../context';
import { HttpError, notFound } from '../../http-error';
import { auditActorOf, insertAuditEntry } from '../audit/repo';
import { findUserById } from '../auth/repo';
import * as repo from './repo';

/**
 * An admin's reset of another user's second factors, for one who lost them all and their recovery
 * codes: every passkey, the authenticator app and the recovery codes go, in one transaction with
 * the audit entry and the mail that tells the user (in their language), so a reset nobody asked for
 * is noticed. Their next sign-in takes the password alone, or leads them to enrol again when
 * REQUIRE_2FA_FOR names their type.
 */
export async function resetTwoFactor(ctx: AppContext, actor: Actor, input: { id: number }): Promise<{ ok: true }> {
  const admin = signedInUser(actor).user;
  if (admin.id === input.id) {
    throw new HttpError(
      400,
      ERROR_CODES.cannotEditSelf,
      'Your own second factors are managed on your settings page, not reset',
    );
  }
  const { db, config, mail } = ctx;
  const user = await findUserById(db, input.id);
  if (!user) throw notFound('User not found');
  const factors = await repo.factorCount(db, user.id);
  await db.transaction().execute(async (trx) => {
    await repo.deleteAllFactors(trx, user.id);
    await insertAuditEntry(trx, {
      customerId: null,
      by: auditActorOf(actor),
      action: 'resetTwoFactor',
      data: { userId: user.id, email: user.email, factors },
    });
    await mail.send(
      {
        to: user.email,
        template: 'twoFactorReset',
        locale: user.preferredLocale,
        data: { fullName: user.fullName, link: `${config.baseUrl}/${user.preferredLocale}/login` },
      },
      trx,
    );
  });
  ctx.log.info({ userId: user.id, by: admin.id }, 'second factors reset');
  return { ok: true };
}
