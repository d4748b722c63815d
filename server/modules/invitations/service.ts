import { INVITATION_VALIDITY_DAYS } from '../../../common/constants';
import { ERROR_CODES } from '../../../common/api/errors';
import {
  type CreateInvitationBody,
  INVITATIONS_PAGE_LENGTH,
  type Invitation,
  type InvitationLink,
  type InvitationList,
  type InvitationListQuery,
} from '../../../common/api/invitations';
import { DEFAULT_LOCALE, type Role } from '../../../common/roles';
import { type Actor, signedInUser } from '../../actor';
import type { AppContext } from '../../context';
import { type DB, isUniqueViolation } from '../../db';
import { fieldDetail, HttpError, notFound } from '../../http-error';
import type { CustomerAccess } from '../../policy';
import { customerScopeOf, roleInScope } from '../../scope';
import { invitationAbilities, mayChooseLocale, mayInviteAs } from './policy';
import { auditActorOf, insertAuditEntry } from '../audit/repo';
import { insertInvitation } from '../customers/store';
import { isMember } from '../members/repo';
import { invitationLink, issueInvitationKey, unsealInvitationKey } from './keys';
import * as repo from './repo';

const INVITATION_NOT_FOUND = 'Invitation not found';
const ALREADY_MEMBER = 'This person is already a member of this customer';
const INVITATION_PENDING = 'An invitation to this address is already pending: resend it instead';
const ROLE_NOT_ALLOWED = 'You cannot invite someone with this role';
const LOCALE_NOT_ALLOWED = 'You cannot choose the language of an invitation';
const INVITATION_EXPIRED = 'This invitation has expired: resend it to get a new link';
const LINK_UNAVAILABLE = 'The link of this invitation cannot be shown again: resend it to get a new one';

const VALIDITY_MS = INVITATION_VALIDITY_DAYS * 24 * 60 * 60 * 1000;

const refusal = (status: number, code: (typeof ERROR_CODES)[keyof typeof ERROR_CODES], message: string, path: string) =>
  new HttpError(status, code, message, fieldDetail(path, code));

const isExpired = (row: { expiresAt: string }, now = Date.now()) => Date.parse(row.expiresAt) <= now;

/**
 * An invitation as its answers carry it. `key` and `invitationLink` reach only a caller who may copy
 * the link (admins), and only while the link works (decision 087): `issuedKey` is the key just
 * issued (invite, resend), else the stored one is unsealed.
 */
function toApiInvitation(
  ctx: AppContext,
  row: repo.InvitationRow,
  access: { role: Role } | null,
  issuedKey?: string,
): Invitation {
  const can = invitationAbilities(access);
  const expired = isExpired(row);
  const key = can.copyLink && !expired ? (issuedKey ?? storedKey(ctx, row)) : null;
  return {
    id: row.id,
    status: expired ? 'expired' : 'pending',
    customerId: row.customerId,
    customerName: row.customerName,
    role: row.role,
    inviterFullName: row.inviterFullName,
    invitedFullName: row.invitedFullName,
    invitedEmail: row.invitedEmail,
    newUser: !row.hasAccount,
    locale: row.locale,
    sentAt: row.sentAt,
    expiresAt: row.expiresAt,
    ...(key ? { key, invitationLink: invitationLink(ctx.config.baseUrl, row.locale, key) } : {}),
    can,
  };
}

/** The key sealed with the invitation, or null when none was stored or another secret sealed it. */
const storedKey = (ctx: AppContext, row: { keySealed: string | null }) =>
  row.keySealed ? unsealInvitationKey(ctx.config.sealSecrets, row.keySealed) : null;

export async function listInvitations(
  ctx: AppContext,
  actor: Actor,
  input: { customerAccess: CustomerAccess | null; query: InvitationListQuery },
): Promise<InvitationList> {
  const { query } = input;
  const { user } = signedInUser(actor);
  const across = input.customerAccess ? null : customerScopeOf(user, 'viewTeam');
  const scope: repo.InvitationScope = across ?? { customerId: input.customerAccess!.customer.id };
  const access = input.customerAccess ?? roleInScope(user, across!);
  const length = query.pageLength ?? (input.customerAccess ? undefined : INVITATIONS_PAGE_LENGTH);
  const { rows, total } = await repo.listPendingInvitations(ctx.db, scope, {
    offset: query.pageOffset,
    length,
    filter: query.filter || undefined,
    sort: query.sort,
  });
  return {
    data: rows.map((row) => toApiInvitation(ctx, row, access)),
    offset: query.pageOffset,
    total,
    totalCapped: false,
  };
}

/** A pending invitation of the route's customer (an accepted or cancelled one is gone for these routes). */
async function pendingInvitation(db: DB, customerAccess: CustomerAccess, id: number) {
  const row = await repo.findInvitation(db, id);
  if (!row || row.customerId !== customerAccess.customer.id || row.state !== 'pending') {
    throw notFound(INVITATION_NOT_FOUND);
  }
  return row;
}

/** Writes the invitation mail in the caller's transaction, with a fresh key's link. */
async function mailInvitation(ctx: AppContext, trx: DB, row: repo.InvitationRow, key: string) {
  await ctx.mail.send(
    {
      to: row.invitedEmail,
      template: 'invitation',
      locale: row.locale,
      data: {
        invitedFullName: row.invitedFullName,
        inviterFullName: row.inviterFullName,
        customerName: row.customerName,
        role: row.role,
        link: invitationLink(ctx.config.baseUrl, row.locale, key),
        validityHours: INVITATION_VALIDITY_DAYS * 24,
      },
    },
    trx,
  );
}

/**
 * Invites someone to the route's customer (spec sections 5 and 6): the role among those the caller
 * may offer, the language only chosen by an account executive or an admin (English otherwise).
 * The invitation, its mail and its audit entry are one transaction. Two requests for one address
 * at once make one invitation: the database's unique index refuses the second.
 */
export async function createInvitation(
  ctx: AppContext,
  actor: Actor,
  input: { customerAccess: CustomerAccess; body: CreateInvitationBody },
): Promise<Invitation> {
  const { user } = signedInUser(actor);
  const { customerAccess, body } = input;
  const { customer } = customerAccess;
  if (!mayInviteAs(customerAccess, body.targetRole)) {
    throw refusal(403, ERROR_CODES.roleNotAllowed, ROLE_NOT_ALLOWED, 'targetRole');
  }
  if (body.locale !== undefined && !mayChooseLocale(customerAccess)) {
    throw refusal(403, ERROR_CODES.localeNotAllowed, LOCALE_NOT_ALLOWED, 'locale');
  }
  const { db } = ctx;
  const conflictOf = async (trx: DB) => {
    if (await isMember(trx, customer.id, body.invitedEmail)) {
      return refusal(409, ERROR_CODES.alreadyMember, ALREADY_MEMBER, 'invitedEmail');
    }
    if (await repo.findPendingInvitationId(trx, customer.id, body.invitedEmail)) {
      return refusal(409, ERROR_CODES.invitationPending, INVITATION_PENDING, 'invitedEmail');
    }
    return null;
  };
  const early = await conflictOf(db);
  if (early) throw early;
  try {
    return await db.transaction().execute(async (trx) => {
      const { key, keySealed } = issueInvitationKey(ctx.config.sessionSecret);
      const now = new Date();
      const { id } = await insertInvitation(trx, {
        key,
        keySealed,
        customerId: customer.id,
        inviterId: user.id,
        invitedEmail: body.invitedEmail,
        invitedFullName: body.invitedFullName,
        role: body.targetRole,
        locale: body.locale ?? DEFAULT_LOCALE,
        state: 'pending',
        selfService: 0,
        signupData: null,
        createdAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + VALIDITY_MS).toISOString(),
        acceptedAt: null,
        acceptedUserId: null,
      });
      const row = await repo.findInvitation(trx, id);
      if (!row) throw new Error('the new invitation cannot be read back');
      await mailInvitation(ctx, trx, row, key);
      await insertAuditEntry(trx, {
        customerId: customer.id,
        by: auditActorOf(actor),
        action: 'inviteMember',
        data: { invitedEmail: row.invitedEmail, invitedFullName: row.invitedFullName, role: row.role },
      });
      return toApiInvitation(ctx, row, customerAccess, key);
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw (await conflictOf(db)) ?? refusal(409, ERROR_CODES.invitationPending, INVITATION_PENDING, 'invitedEmail');
    }
    throw error;
  }
}

/**
 * Sends a pending or expired invitation again (decisions.md): a new key, so the old link stops
 * working, and a new 7-day expiry; the mail and the audit entry in the same transaction.
 */
export async function resendInvitation(
  ctx: AppContext,
  actor: Actor,
  input: { customerAccess: CustomerAccess; id: number },
): Promise<Invitation> {
  signedInUser(actor);
  return ctx.db.transaction().execute(async (trx) => {
    const row = await pendingInvitation(trx, input.customerAccess, input.id);
    const { key, keyHash, keySealed } = issueInvitationKey(ctx.config.sessionSecret);
    const now = new Date();
    const sentAt = now.toISOString();
    const expiresAt = new Date(now.getTime() + VALIDITY_MS).toISOString();
    if (!(await repo.replaceKey(trx, row.id, { keyHash, keySealed, sentAt, expiresAt }))) {
      throw notFound(INVITATION_NOT_FOUND);
    }
    const renewed = { ...row, sentAt, expiresAt, keySealed };
    await mailInvitation(ctx, trx, renewed, key);
    await insertAuditEntry(trx, {
      customerId: row.customerId,
      by: auditActorOf(actor),
      action: 'resendInvitation',
      data: {
        invitedEmail: row.invitedEmail,
        invitedFullName: row.invitedFullName,
        role: row.role,
        wasExpired: isExpired(row, now.getTime()),
      },
    });
    return toApiInvitation(ctx, renewed, input.customerAccess, key);
  });
}

/** Revokes a pending or expired invitation: its link stops working; the row stays for the log. */
export async function cancelInvitation(
  ctx: AppContext,
  actor: Actor,
  input: { customerAccess: CustomerAccess; id: number },
): Promise<{ ok: true }> {
  signedInUser(actor);
  return ctx.db.transaction().execute(async (trx) => {
    const row = await pendingInvitation(trx, input.customerAccess, input.id);
    if (!(await repo.cancelInvitation(trx, row.id))) throw notFound(INVITATION_NOT_FOUND);
    await insertAuditEntry(trx, {
      customerId: row.customerId,
      by: auditActorOf(actor),
      action: 'cancelInvitation',
      data: { invitedEmail: row.invitedEmail, invitedFullName: row.invitedFullName, role: row.role },
    });
    return { ok: true as const };
  });
}

/**
 * The link that was mailed, for an admin to copy (decision 027): unsealed from the stored key. An
 * expired invitation has no working link (resend it); nor has one whose key was sealed under another
 * server secret, or stored without one.
 */
export async function getInvitationLink(
  ctx: AppContext,
  _actor: Actor,
  input: { customerAccess: CustomerAccess; id: number },
): Promise<InvitationLink> {
  const row = await pendingInvitation(ctx.db, input.customerAccess, input.id);
  if (isExpired(row)) throw new HttpError(409, ERROR_CODES.invitationExpired, INVITATION_EXPIRED);
  const key = storedKey(ctx, row);
  if (!key) throw new HttpError(409, ERROR_CODES.linkUnavailable, LINK_UNAVAILABLE);
  return { invitationLink: invitationLink(ctx.config.baseUrl, row.locale, key) };
}
