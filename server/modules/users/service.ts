import type {
  CreateUserBody,
  UpdateUserBody,
  User,
  UserList,
  UserListQuery,
  UserTwoFactor,
} from '../../../common/api/users';
import type { Actor } from '../../actor';
import { callerOf } from '../../policy';
import type { AppContext } from '../../context';
import { isUniqueViolation } from '../../db';
import { emailTaken, notFound } from '../../http-error';
import { hashPassword } from '../auth/password';
import { assertPasswordAcceptable } from '../auth/password-rule';
import { revokeResetTokens } from '../auth/repo';
import { issuePasswordResetToken, resetPasswordLink } from '../auth/tokens';
import { endUserSessions } from '../sessions/service';
import { factorSummaries } from '../two-factor/repo';
import { authorizeUserCreate, authorizeUserUpdate, userAbilities } from './policy';
import * as repo from './repo';

/**
 * A new account's "choose your password" link lasts 7 days, like an invitation: the person may not
 * read the mail within the hour a forgotten-password link lasts. Later resets keep the one hour.
 */
export const FIRST_PASSWORD_LINK_VALIDITY_MS = 7 * 24 * 60 * 60 * 1000;

export const EMAIL_TAKEN = 'A user with this e-mail already exists';

const NO_FACTOR: UserTwoFactor = { passkeys: 0, authenticator: false };

/**
 * The API calls the full name `fullname` here (spec section 3, "User"); `can` is what the actor may
 * do with the account (none for the command line, which reads no screen); `twoFactor` its factors.
 */
function toApiUser(row: repo.UserRow, actor: Actor, twoFactor: UserTwoFactor): User {
  return {
    id: row.id,
    fullname: row.fullName,
    email: row.email,
    type: row.type,
    status: row.status,
    preferredLocale: row.preferredLocale,
    can: userAbilities(callerOf(actor), row),
    twoFactor,
  };
}

async function withFactors(ctx: AppContext, row: repo.UserRow, actor: Actor): Promise<User> {
  const factors = await factorSummaries(ctx.db, [row.id]);
  return toApiUser(row, actor, factors.get(row.id) ?? NO_FACTOR);
}

export async function listUsers(ctx: AppContext, actor: Actor, query: UserListQuery): Promise<UserList> {
  const { rows, total, capped } = await repo.listUsers(ctx.db, {
    offset: query.pageOffset,
    length: query.pageLength,
    filter: query.filter,
  });
  const factors = await factorSummaries(
    ctx.db,
    rows.map((row) => row.id),
  );
  return {
    results: rows.map((row) => toApiUser(row, actor, factors.get(row.id) ?? NO_FACTOR)),
    pageOffset: query.pageOffset,
    pageLength: query.pageLength,
    totalHits: total,
    totalHitsCapped: capped,
  };
}

export async function getUser(ctx: AppContext, actor: Actor, input: { id: number }): Promise<User> {
  const row = await repo.findUserById(ctx.db, input.id);
  if (!row) throw notFound('User not found');
  return withFactors(ctx, row, actor);
}

/** What creates a user: the API's body, plus a password only the operator command line may give. */
type CreateUserInput = CreateUserBody & { password?: string };

/**
 * Creates an enabled staff account. Through the API it has no password and is mailed a link to choose
 * one; the operator command line gives a password instead (the first admin has no mailbox to read yet).
 * The account, its token and its mail are one transaction: no account without its mail, no mail
 * with a link to a missing account.
 */
export async function createUser(ctx: AppContext, actor: Actor, input: CreateUserInput): Promise<User> {
  const { db, config, mail } = ctx;
  authorizeUserCreate(actor, input);
  if (input.password !== undefined)
    assertPasswordAcceptable(input.password, { email: input.email, names: [input.fullname] });
  if (await repo.emailTaken(db, input.email)) throw emailTaken(EMAIL_TAKEN);
  // Hashing is slow: do it before the transaction, not inside.
  const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
  let row: repo.UserRow;
  try {
    row = await db.transaction().execute(async (trx) => {
      const row = await repo.insertUser(trx, {
        email: input.email,
        fullName: input.fullname,
        type: input.type,
        preferredLocale: input.preferredLocale,
        passwordHash,
      });
      if (passwordHash) return row;
      const token = await issuePasswordResetToken(trx, row.id, FIRST_PASSWORD_LINK_VALIDITY_MS);
      await mail.send(
        {
          to: row.email,
          template: 'accountCreated',
          locale: row.preferredLocale,
          data: {
            fullName: row.fullName,
            link: resetPasswordLink(config.baseUrl, row.preferredLocale, token),
            validityHours: FIRST_PASSWORD_LINK_VALIDITY_MS / 3_600_000,
          },
        },
        trx,
      );
      return row;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken(EMAIL_TAKEN);
    throw error;
  }
  // a new account has no factor yet
  return toApiUser(row, actor, NO_FACTOR);
}

/**
 * Changes an account. Changing its e-mail, disabling or re-enabling it spends every reset or
 * first-password link it was sent: a link mailed to a mistyped address must not open the corrected
 * account, nor an old link a re-enabled one. An account still without a password gets a new
 * first-password link at its new address, queued in the same transaction as the change.
 */
export async function updateUser(
  ctx: AppContext,
  actor: Actor,
  input: { id: number; patch: UpdateUserBody },
): Promise<User> {
  const { db, config, mail } = ctx;
  const { id, patch } = input;
  const current = await repo.findUserById(db, id);
  if (!current) throw notFound('User not found');
  authorizeUserUpdate(actor, id, patch);
  if (patch.email !== undefined && (await repo.emailTaken(db, patch.email, id))) throw emailTaken(EMAIL_TAKEN);

  let row: repo.UserRow | undefined;
  try {
    row = await db.transaction().execute(async (trx) => {
      const updated = await repo.updateUser(trx, id, {
        ...(patch.email !== undefined ? { email: patch.email } : {}),
        ...(patch.fullname !== undefined ? { fullName: patch.fullname } : {}),
        ...(patch.status !== undefined ? { status: patch.status } : {}),
        ...(patch.preferredLocale !== undefined ? { preferredLocale: patch.preferredLocale } : {}),
      });
      if (!updated) return undefined;
      const emailChanged = updated.email !== current.email;
      if (emailChanged || updated.status !== current.status) await revokeResetTokens(trx, id);
      // A disabled account must stop working now, not when its sessions go idle.
      if (updated.status === 'disabled' && current.status !== 'disabled') await endUserSessions(trx, id);
      if (emailChanged && updated.status === 'enabled' && !(await repo.hasPassword(trx, id))) {
        const token = await issuePasswordResetToken(trx, id, FIRST_PASSWORD_LINK_VALIDITY_MS);
        await mail.send(
          {
            to: updated.email,
            template: 'accountCreated',
            locale: updated.preferredLocale,
            data: {
              fullName: updated.fullName,
              link: resetPasswordLink(config.baseUrl, updated.preferredLocale, token),
              validityHours: FIRST_PASSWORD_LINK_VALIDITY_MS / 3_600_000,
            },
          },
          trx,
        );
      }
      return updated;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken(EMAIL_TAKEN);
    throw error;
  }
  if (!row) throw notFound('User not found');
  return withFactors(ctx, row, actor);
}
