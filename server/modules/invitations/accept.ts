import type {
  AcceptInvitationResult,
  AcceptNewInvitationBody,
  InvitationKeyParam,
  InvitationPreview,
} from '../../../common/api/invitation-acceptance';
import { ERROR_CODES } from '../../../common/api/errors';
import { deriveRole, type MemberRole } from '../../../common/roles';
import { type Actor, signedInUser } from '../../actor';
import type { AppContext } from '../../context';
import { emitNotification } from '../notifications/events';
import { emitWebhook } from '../webhooks/deliver';
import { type DB, isUniqueViolation, nowIso } from '../../db';
import { HttpError } from '../../http-error';
import { auditUser, insertAuditEntry } from '../audit/repo';
import { hashPassword } from '../auth/password';
import { assertPasswordAcceptable } from '../auth/password-rule';
import { insertMembership } from '../customers/store';
import { startSession } from '../sessions/service';
import { insertUser } from '../users/repo';
import { invitationKeyHash } from './keys';
import * as repo from './repo';

/**
 * The accepting side of invitations (spec section 2, "Accept invitation"): what a link shows, and
 * joining with a new account or the signed-in one. An invitation is accepted once: the claim is a
 * conditional update that only a pending, unexpired, unaccepted row passes, and the membership, the
 * new account and the audit entry are written in the same transaction, so a second request racing
 * the first changes nothing.
 */

const INVITATION_MESSAGES = {
  invalid: 'This invitation link is invalid.',
  expired: 'This invitation has expired. Ask the person who invited you to send it again.',
  cancelled: 'This invitation has been cancelled.',
  accepted: 'This invitation has already been accepted.',
  otherEmail:
    'This invitation was sent to another e-mail address. Sign out, then open the link again or sign in with the invited address.',
  accountExists: 'An account already exists for this e-mail address: sign in to join.',
  alreadyMember: 'You are already a member of this customer.',
  roleMismatch: 'Your account cannot take the role this invitation offers. Ask the person who invited you.',
} as const;

const invalid = () => new HttpError(404, ERROR_CODES.invitationInvalid, INVITATION_MESSAGES.invalid);
const expired = () => new HttpError(410, ERROR_CODES.invitationExpired, INVITATION_MESSAGES.expired);
const cancelled = () => new HttpError(410, ERROR_CODES.invitationCancelled, INVITATION_MESSAGES.cancelled);
const accepted = () => new HttpError(410, ERROR_CODES.invitationAccepted, INVITATION_MESSAGES.accepted);
const otherEmail = () => new HttpError(403, ERROR_CODES.invitationOtherEmail, INVITATION_MESSAGES.otherEmail);
const accountExists = () => new HttpError(409, ERROR_CODES.invitationAccountExists, INVITATION_MESSAGES.accountExists);
const alreadyMember = () => new HttpError(409, ERROR_CODES.invitationAlreadyMember, INVITATION_MESSAGES.alreadyMember);
const roleMismatch = () => new HttpError(403, ERROR_CODES.invitationRoleMismatch, INVITATION_MESSAGES.roleMismatch);

type InvitationRow = repo.InvitationToJoin;

const isExpired = (invitation: Pick<InvitationRow, 'expiresAt'>, now: string) => invitation.expiresAt <= now;

/** An unknown, cancelled or accepted invitation answers why; an open one (maybe expired) passes. */
function assertOpen(invitation: InvitationRow | undefined): asserts invitation is InvitationRow {
  if (!invitation) throw invalid();
  if (invitation.state === 'cancelled') throw cancelled();
  if (invitation.state === 'accepted' || invitation.acceptedAt !== null) throw accepted();
}

/** An invitation that can no longer be joined answers why; a live one passes. */
function assertUsable(invitation: InvitationRow | undefined, now: string): asserts invitation is InvitationRow {
  assertOpen(invitation);
  if (isExpired(invitation, now)) throw expired();
}

/** Why a claim that lost failed, read again inside the transaction. */
async function lostClaim(db: DB, key: string, now: string): Promise<HttpError> {
  const current = await repo.findInvitationToJoin(db, invitationKeyHash(key));
  try {
    assertUsable(current, now);
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  return accepted();
}

/**
 * Claims the invitation for `member`, adds the membership, writes the `acceptInvitation` entry and
 * queues the notices of the team's managers, all through `trx`. The entry keeps the names and
 * addresses a reader needs (spec section 3, Log entry: invitationFrom), since the rows they come
 * from may change later.
 */
async function join(
  ctx: AppContext,
  trx: DB,
  key: string,
  invitation: InvitationRow,
  member: { id: number; email: string; fullName: string },
  now: string,
) {
  if (!(await repo.claimInvitation(trx, invitation.id, member.id, now))) throw await lostClaim(trx, key, now);
  if (await repo.userHasMembership(trx, member.id, invitation.customerId)) throw alreadyMember();
  await insertMembership(trx, { userId: member.id, customerId: invitation.customerId, role: invitation.role });
  await insertAuditEntry(trx, {
    customerId: invitation.customerId,
    by: auditUser(member),
    action: 'acceptInvitation',
    data: {
      invitationFrom: invitation.inviterEmail,
      inviterFullName: invitation.inviterFullName,
      memberEmail: member.email,
      memberFullName: member.fullName,
      role: invitation.role,
    },
    createdAt: now,
  });
  // the team's managers who asked for it hear of it once this commits (docs/notifications.md)
  await emitNotification(ctx, trx, {
    type: 'invitationAccepted',
    customerId: invitation.customerId,
    memberUserId: member.id,
    role: invitation.role,
  });
  await emitWebhook(ctx, trx, 'member.joined', {
    customerId: invitation.customerId,
    userId: member.id,
    email: member.email,
    fullName: member.fullName,
    role: invitation.role,
  });
}

/** A unique index refusing the second of two racing writes means the first one won. */
async function asAcceptanceError<T>(work: () => Promise<T>, onUnique: () => HttpError): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw onUnique();
    throw error;
  }
}

/** Public: what the invitation page shows. An expired invitation still answers, with status expired. */
export async function getInvitation(
  ctx: AppContext,
  _actor: Actor,
  input: InvitationKeyParam,
): Promise<InvitationPreview> {
  const invitation = await repo.findInvitationToJoin(ctx.db, invitationKeyHash(input.key));
  assertOpen(invitation);
  return {
    customerName: invitation.customerName,
    role: invitation.role,
    inviterFullName: invitation.inviterFullName,
    invitedFullName: invitation.invitedFullName,
    newUser: !(await repo.emailHasAccount(ctx.db, invitation.invitedEmail)),
    status: isExpired(invitation, nowIso()) ? 'expired' : 'pending',
  };
}

/** The user type an account made for this role gets: account executives are staff, everyone else a client. */
const typeForRole = (role: MemberRole) => (role === 'accountExecutive' ? 'accountExecutive' : 'client');

/**
 * Public: creates the invited address's account (with the invitation's language), makes it a member
 * and signs it in. An address that already has an account joins through `acceptAsExistingUser`.
 */
export async function acceptAsNewUser(
  ctx: AppContext,
  actor: Actor,
  input: InvitationKeyParam & AcceptNewInvitationBody,
): Promise<{ session: string; body: AcceptInvitationResult }> {
  const { db } = ctx;
  const invitation = await repo.findInvitationToJoin(db, invitationKeyHash(input.key));
  assertUsable(invitation, nowIso());
  if (await repo.emailHasAccount(db, invitation.invitedEmail)) throw accountExists();
  assertPasswordAcceptable(input.password, { email: invitation.invitedEmail, names: [input.fullName] });
  // Hashing is slow: do it before the transaction, not inside.
  const passwordHash = await hashPassword(input.password);
  const userId = await asAcceptanceError(
    () =>
      db.transaction().execute(async (trx) => {
        const now = nowIso();
        const user = await insertUser(trx, {
          email: invitation.invitedEmail,
          fullName: input.fullName,
          type: typeForRole(invitation.role),
          preferredLocale: invitation.locale,
          passwordHash,
        });
        await join(ctx, trx, input.key, invitation, user, now);
        return user.id;
      }),
    accountExists,
  );
  const session = await startSession(ctx, actor, userId);
  return { session, body: { customerId: invitation.customerId } };
}

/** Signed in: the signed-in user joins, if the invitation was sent to their address. */
export async function acceptAsExistingUser(
  ctx: AppContext,
  actor: Actor,
  input: InvitationKeyParam,
): Promise<AcceptInvitationResult> {
  const { db } = ctx;
  const { user } = signedInUser(actor);
  const invitation = await repo.findInvitationToJoin(db, invitationKeyHash(input.key));
  assertUsable(invitation, nowIso());
  if (invitation.invitedEmail.toLowerCase() !== user.email.toLowerCase()) throw otherEmail();
  if (deriveRole(user.type, invitation.role) === null) throw roleMismatch();
  await asAcceptanceError(
    () => db.transaction().execute((trx) => join(ctx, trx, input.key, invitation, user, nowIso())),
    alreadyMember,
  );
  return { customerId: invitation.customerId };
}
