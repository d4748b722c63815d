import type { FastifyInstance } from 'fastify';
import type { CreateUserBody, UpdateUserBody, User, UserList, UserListQuery } from '../../../common/api/users';
import { isUniqueViolation } from '../../db';
import { emailTaken, notFound } from '../../http-error';
import { endUserSessions, type SessionUser } from '../../plugins/session';
import { issuePasswordResetToken, resetPasswordLink } from '../auth/tokens';
import { authorizeUserUpdate } from './policy';
import * as repo from './repo';

/**
 * A new account's "choose your password" link lasts 7 days, like an invitation: the person may not
 * read the mail within the hour a forgotten-password link lasts. Later resets keep the one hour.
 */
export const FIRST_PASSWORD_LINK_VALIDITY_MS = 7 * 24 * 60 * 60 * 1000;

export const EMAIL_TAKEN = 'A user with this e-mail already exists';

/** The API calls the full name `fullname` here (spec section 3, "User"). */
export function toApiUser(row: repo.UserRow): User {
  return {
    id: row.id,
    fullname: row.fullName,
    email: row.email,
    type: row.type,
    status: row.status,
    preferredLocale: row.preferredLocale,
  };
}

export async function listUsers(app: FastifyInstance, query: UserListQuery): Promise<UserList> {
  const { rows, total } = await repo.listUsers(app.ctx.db, {
    offset: query.pageOffset,
    length: query.pageLength,
    filter: query.filter,
  });
  return { results: rows.map(toApiUser), pageOffset: query.pageOffset, pageLength: query.pageLength, totalHits: total };
}

export async function getUser(app: FastifyInstance, id: number): Promise<User> {
  const row = await repo.findUserById(app.ctx.db, id);
  if (!row) throw notFound('User not found');
  return toApiUser(row);
}

/**
 * Creates an enabled staff account without a password and mails it a link to choose one.
 * The mail is written after the commit, so a failed insert never leaves a link to a missing account.
 */
export async function createUser(app: FastifyInstance, body: CreateUserBody): Promise<User> {
  const { db, config, mail } = app.ctx;
  if (await repo.emailTaken(db, body.email)) throw emailTaken(EMAIL_TAKEN);
  let created: { row: repo.UserRow; token: string };
  try {
    created = await db.transaction().execute(async (trx) => {
      const row = await repo.insertUser(trx, {
        email: body.email,
        fullName: body.fullname,
        type: body.type,
        preferredLocale: body.preferredLocale,
      });
      const token = await issuePasswordResetToken(trx, row.id, FIRST_PASSWORD_LINK_VALIDITY_MS);
      return { row, token };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken(EMAIL_TAKEN);
    throw error;
  }
  const { row, token } = created;
  try {
    await mail.send({
      to: row.email,
      template: 'accountCreated',
      locale: row.preferredLocale,
      data: {
        fullName: row.fullName,
        link: resetPasswordLink(config.baseUrl, row.preferredLocale, token),
        // in hours: the template states "valid for 7 days"
        validity: String(FIRST_PASSWORD_LINK_VALIDITY_MS / 3_600_000),
      },
    });
  } catch (error) {
    // The account exists either way; answering 500 would make the admin retry into a 409. The person
    // can still get a link through "password lost".
    app.log.error({ err: error, userId: row.id }, 'account created but its welcome mail could not be queued');
  }
  return toApiUser(row);
}

export async function updateUser(
  app: FastifyInstance,
  actor: SessionUser,
  id: number,
  patch: UpdateUserBody,
): Promise<User> {
  const { db } = app.ctx;
  const current = await repo.findUserById(db, id);
  if (!current) throw notFound('User not found');
  authorizeUserUpdate(actor, id, patch);
  if (patch.email !== undefined && (await repo.emailTaken(db, patch.email, id))) throw emailTaken(EMAIL_TAKEN);

  let row: repo.UserRow | undefined;
  try {
    row = await repo.updateUser(db, id, {
      ...(patch.email !== undefined ? { email: patch.email } : {}),
      ...(patch.fullname !== undefined ? { fullName: patch.fullname } : {}),
      ...(patch.status !== undefined ? { status: patch.status } : {}),
      ...(patch.preferredLocale !== undefined ? { preferredLocale: patch.preferredLocale } : {}),
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken(EMAIL_TAKEN);
    throw error;
  }
  if (!row) throw notFound('User not found');
  // A disabled account must stop working now, not when its sessions go idle.
  if (row.status === 'disabled' && current.status !== 'disabled') await endUserSessions(app, id);
  return toApiUser(row);
}
