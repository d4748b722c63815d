import crypto from 'node:crypto';
import type { ConfirmEmailBody, ConfirmEmailResult } from '../../../common/api/auth';
import { ERROR_CODES } from '../../../common/api/errors';
import type { Locale } from '../../../common/roles';
import type { Actor } from '../../actor';
import type { AppContext } from '../../context';
import { type DB, isUniqueViolation, nowIso } from '../../db';
import { emailEquals } from '../../db/email';
import { badRequest, emailTaken, fieldDetail, HttpError } from '../../http-error';
import { loginDelayed, loginWait } from './backoff';
import { verifyPassword } from './password';
import * as repo from './repo';
import { hashToken, revokeResetTokens } from './tokens';

/**
 * Changing one's own e-mail (docs/decisions/018): the current password is asked, and the change
 * takes effect only when the link mailed to the new address is followed, while the old address is
 * told. A stolen session alone can therefore not move an account to another mailbox. The request
 * answers the same whether or not the new address has an account, and reserves nothing: the users
 * table decides at confirmation.
 */
export const EMAIL_CHANGE_VALIDITY_MS = 24 * 60 * 60 * 1000;

export const wrongPassword = () =>
  new HttpError(
    400,
    ERROR_CODES.wrongPassword,
    'The current password is not correct',
    fieldDetail('currentPassword', ERROR_CODES.wrongPassword),
  );
const invalidLink = () => new HttpError(400, ERROR_CODES.invalidToken, 'This link is invalid or has expired.');
const addressTaken = () => emailTaken('This e-mail address is already used by another account');

export function confirmEmailLink(baseUrl: string, locale: string, token: string) {
  return `${baseUrl}/${locale}/confirm-email/${encodeURIComponent(token)}`;
}

async function spendPendingChanges(db: DB, userId: number) {
  await db
    .updateTable('emailChangeTokens')
    .set({ usedAt: nowIso() })
    .where('userId', '=', userId)
    .where('usedAt', 'is', null)
    .execute();
}

/** Stores a request to move `userId` to `newEmail`; returns the raw token, which only the mail carries. */
export async function issueEmailChangeToken(db: DB, userId: number, newEmail: string): Promise<string> {
  const token = crypto.randomBytes(32).toString('base64url');
  const now = Date.now();
  await db
    .insertInto('emailChangeTokens')
    .values({
      userId,
      newEmail,
      tokenHash: hashToken(token),
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + EMAIL_CHANGE_VALIDITY_MS).toISOString(),
      usedAt: null,
    })
    .execute();
  return token;
}

/** Asks for a change of the signed-in user's e-mail to `newEmail`; mails go out with the request. */
export async function requestEmailChange(
  ctx: AppContext,
  user: { id: number; email: string; fullName: string; preferredLocale: Locale },
  newEmail: string,
  currentPassword: string | undefined,
  ip: string,
): Promise<void> {
  const { db, config, mail } = ctx;
  if (!currentPassword) {
    throw badRequest('The current password is required to change the e-mail', [
      { path: 'currentPassword', message: 'errors.required' },
    ]);
  }
  // A stolen session must not turn into unlimited password guesses: wrong current passwords count as
  // failed sign-ins of the account and meet the same back-off (backoff.ts).
  const wait = await loginWait(db, user.email);
  if (wait > 0) throw loginDelayed(wait);
  const stored = await db.selectFrom('users').select('passwordHash').where('id', '=', user.id).executeTakeFirst();
  if (!(await verifyPassword(stored?.passwordHash ?? null, currentPassword))) {
    await repo.recordLoginAttempt(db, { email: user.email, ip, success: false });
    throw wrongPassword();
  }
  const owner = await db
    .selectFrom('users')
    .select(['id', 'preferredLocale'])
    .where(emailEquals(newEmail))
    .where('id', '!=', user.id)
    .executeTakeFirst();

  await db.transaction().execute(async (trx) => {
    // Only the latest request counts.
    await spendPendingChanges(trx, user.id);
    if (owner) {
      // The answer is the same; only the mailbox of that account learns of the attempt.
      await mail.send(
        {
          to: newEmail,
          template: 'emailChangeTaken',
          locale: owner.preferredLocale,
          data: {
            link: `${config.baseUrl}/${owner.preferredLocale}/login`,
          },
        },
        trx,
      );
    } else {
      const token = await issueEmailChangeToken(trx, user.id, newEmail);
      await mail.send(
        {
          to: newEmail,
          template: 'emailChangeConfirm',
          locale: user.preferredLocale,
          data: {
            fullName: user.fullName,
            link: confirmEmailLink(config.baseUrl, user.preferredLocale, token),
            validityHours: EMAIL_CHANGE_VALIDITY_MS / 3_600_000,
          },
        },
        trx,
      );
    }
    await mail.send(
      {
        to: user.email,
        template: 'emailChangeNotice',
        locale: user.preferredLocale,
        data: {
          fullName: user.fullName,
          newEmail,
          link: `${config.baseUrl}/${user.preferredLocale}/password-lost`,
        },
      },
      trx,
    );
  });
}

/**
 * Follows a link of requestEmailChange: the account takes the new address. The link works once,
 * for 24 hours, for an enabled account; an address taken meanwhile answers 409 and changes nothing.
 */
export async function confirmEmail(
  ctx: AppContext,
  _actor: Actor,
  input: ConfirmEmailBody,
): Promise<ConfirmEmailResult> {
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('emailChangeTokens')
        .innerJoin('users', 'users.id', 'emailChangeTokens.userId')
        .select(['emailChangeTokens.id', 'emailChangeTokens.userId', 'emailChangeTokens.newEmail'])
        .where('emailChangeTokens.tokenHash', '=', hashToken(input.token))
        .where('emailChangeTokens.usedAt', 'is', null)
        .where('emailChangeTokens.expiresAt', '>', nowIso())
        .where('users.status', '=', 'enabled')
        .executeTakeFirst();
      if (!row) throw invalidLink();
      // A guarded claim: of two concurrent confirmations only one finds the link unused.
      const claimed = await trx
        .updateTable('emailChangeTokens')
        .set({ usedAt: nowIso() })
        .where('id', '=', row.id)
        .where('usedAt', 'is', null)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) throw invalidLink();
      const taken = await trx
        .selectFrom('users')
        .select('id')
        .where(emailEquals(row.newEmail))
        .where('id', '!=', row.userId)
        .executeTakeFirst();
      if (taken) throw addressTaken();
      await trx
        .updateTable('users')
        .set({ email: row.newEmail, updatedAt: nowIso() })
        .where('id', '=', row.userId)
        .execute();
      // Links sent to the old address stop working, as with an admin's change (6.1).
      await revokeResetTokens(trx, row.userId);
      await spendPendingChanges(trx, row.userId);
      return { email: row.newEmail };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw addressTaken();
    throw error;
  }
}
