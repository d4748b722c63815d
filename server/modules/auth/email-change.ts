import crypto from 'node:crypto';
import type { ConfirmEmailBody, ConfirmEmailResult } from '../../../common/api/auth';
import { ERROR_CODES } from '../../../common/api/errors';
import type { Locale } from '../../../common/roles';
import { type Actor, signedInUser } from '../../actor';
import type { AppContext } from '../../context';
import { type DB, isUniqueViolation } from '../../db';
import { badRequest, emailTaken, fieldDetail, HttpError } from '../../http-error';
import { loginDelayed, loginWait } from './backoff';
import { verifyPassword } from './password';
import * as repo from './repo';
import { hashToken } from './hash';

/**
 * Changing one's own e-mail (docs/decisions/018): the current password is asked, and the change
 * takes effect only when the link mailed to the new address is followed, while the old address is
 * told. A stolen session alone can therefore not move an account to another mailbox. The request
 * answers the same whether or not the new address has an account, and reserves nothing: the users
 * table decides at confirmation.
 */
const EMAIL_CHANGE_VALIDITY_MS = 24 * 60 * 60 * 1000;

const wrongPassword = () =>
  new HttpError(
    400,
    ERROR_CODES.wrongPassword,
    'The current password is not correct',
    fieldDetail('currentPassword', ERROR_CODES.wrongPassword),
  );
const invalidLink = () => new HttpError(400, ERROR_CODES.invalidToken, 'This link is invalid or has expired.');
const addressTaken = () => emailTaken('This e-mail address is already used by another account');

function confirmEmailLink(baseUrl: string, locale: string, token: string) {
  return `${baseUrl}/${locale}/confirm-email/${encodeURIComponent(token)}`;
}

/** Stores a request to move `userId` to `newEmail`; returns the raw token, which only the mail carries. */
export async function issueEmailChangeToken(db: DB, userId: number, newEmail: string): Promise<string> {
  const token = crypto.randomBytes(32).toString('base64url');
  const now = Date.now();
  await repo.insertEmailChangeToken(db, {
    userId,
    newEmail,
    tokenHash: hashToken(token),
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + EMAIL_CHANGE_VALIDITY_MS).toISOString(),
  });
  return token;
}

/**
 * Asks for a change of the signed-in user's e-mail to `newEmail`; mails go out with the request, in
 * `locale` (the language the same profile change may have just chosen).
 */
export async function requestEmailChange(
  ctx: AppContext,
  actor: Actor,
  input: { newEmail: string; currentPassword: string | undefined; locale: Locale },
): Promise<void> {
  const { db, config, mail } = ctx;
  const { newEmail, currentPassword } = input;
  const { user: current, ip } = signedInUser(actor);
  const user = { ...current, preferredLocale: input.locale };
  if (!currentPassword) {
    throw badRequest('The current password is required to change the e-mail', [
      { path: 'currentPassword', message: 'errors.required' },
    ]);
  }
  // A stolen session must not turn into unlimited password guesses: wrong current passwords count as
  // failed sign-ins of the account and meet the same back-off (backoff.ts).
  const wait = await loginWait(db, user.email);
  if (wait > 0) throw loginDelayed(wait);
  if (!(await verifyPassword(await repo.passwordHashOf(db, user.id), currentPassword))) {
    await repo.recordLoginAttempt(db, { email: user.email, ip, success: false });
    throw wrongPassword();
  }
  const owner = await repo.otherUserWithEmail(db, newEmail, user.id);

  await db.transaction().execute(async (trx) => {
    // Only the latest request counts.
    await repo.spendEmailChanges(trx, user.id);
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
      const row = await repo.findUsableEmailChange(trx, hashToken(input.token));
      if (!row) throw invalidLink();
      // A guarded claim: of two concurrent confirmations only one finds the link unused.
      if (!(await repo.claimEmailChange(trx, row.id))) throw invalidLink();
      if (await repo.otherUserWithEmail(trx, row.newEmail, row.userId)) throw addressTaken();
      await repo.setUserEmail(trx, row.userId, row.newEmail);
      // Links sent to the old address stop working, as with an admin's change (6.1).
      await repo.revokeResetTokens(trx, row.userId);
      await repo.spendEmailChanges(trx, row.userId);
      return { email: row.newEmail };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw addressTaken();
    throw error;
  }
}
