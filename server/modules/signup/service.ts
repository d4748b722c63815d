import { setTimeout as sleep } from 'node:timers/promises';

import { ERROR_CODES } from '../../../common/api/errors';
import type { SignupBody } from '../../../common/api/signup';
import type {
  SignupConfirmBody,
  SignupConfirmResult,
  SignupKeyParam,
  SignupPreview,
} from '../../../common/api/signup-confirmation';
import { INVITATION_VALIDITY_DAYS } from '../../../common/constants';
import { DEFAULT_LOCALE, type Locale } from '../../../common/roles';
import { type Actor, type Origin, originOf } from '../../actor';
import type { AppContext } from '../../context';
import { type DB, isUniqueViolation, nowIso } from '../../db';
import { HttpError } from '../../http-error';
import { auditActorOf, auditUser, insertAuditEntry } from '../audit/repo';
import { hashPassword } from '../auth/password';
import { assertPasswordAcceptable } from '../auth/password-rule';
import { addCustomer, unusedCustomerKey } from '../customers/service';
import { insertInvitation, insertMembership } from '../customers/store';
import { createTrialInstance } from '../instances/service';
import { emailHasAccount } from '../invitations/repo';
import { invitationKeyHash, issueInvitationKey } from '../invitations/keys';
import { startSession } from '../sessions/service';
import { insertUser } from '../users/repo';
import { emitWebhook } from '../webhooks/deliver';
import * as repo from './repo';

/**
 * Self-service sign-up (spec sections 2, 4 and 8; docs/decisions/067): a visitor's form becomes a
 * pending self-service invitation and a mail with its link; the link's wizard confirms it into an
 * account, a customer in trial and its project manager's membership, in one transaction, once.
 */

/**
 * The spec's words are in the messages (spec 4: an error containing "pending invitation" or
 * "already exists" picks its screen); the client branches on the codes.
 */
const SIGNUP_MESSAGES = {
  alreadyExists: 'An account with this e-mail address already exists.',
  pendingInvitation: 'There is already a pending invitation for this e-mail address: check your inbox and spam folder.',
  invalid: 'This confirmation link is invalid.',
  expired: 'This confirmation link has expired: sign up again to get a new one.',
  confirmed: 'This sign-up has already been confirmed: sign in to reach your account.',
  retry: 'Your sign-up could not be confirmed: please try again.',
} as const;

const alreadyExists = () => new HttpError(409, ERROR_CODES.signupAlreadyExists, SIGNUP_MESSAGES.alreadyExists);
const pendingInvitation = () =>
  new HttpError(409, ERROR_CODES.signupPendingInvitation, SIGNUP_MESSAGES.pendingInvitation);
const invalid = () => new HttpError(404, ERROR_CODES.signupInvalid, SIGNUP_MESSAGES.invalid);
const expired = () => new HttpError(410, ERROR_CODES.signupExpired, SIGNUP_MESSAGES.expired);
const confirmed = () => new HttpError(410, ERROR_CODES.signupConfirmed, SIGNUP_MESSAGES.confirmed);

const VALIDITY_MS = INVITATION_VALIDITY_DAYS * 24 * 60 * 60 * 1000;

/** The page the mail's link opens: /{locale}/sign-up/confirmation/{key}. */
function signupConfirmationLink(baseUrl: string, locale: Locale, key: string) {
  return `${baseUrl}/${locale}/sign-up/confirmation/${encodeURIComponent(key)}`;
}

/** The sign-up form as `signup_data` keeps it, then with the wizard's answers. */
interface SignupData {
  firstName: string;
  lastName: string;
  companyName: string;
  jobTitle: string;
}

function readSignupData(stored: string | null): SignupData {
  const parsed = (stored ? JSON.parse(stored) : {}) as Partial<Record<keyof SignupData, unknown>>;
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return {
    firstName: text(parsed.firstName),
    lastName: text(parsed.lastName),
    companyName: text(parsed.companyName),
    jobTitle: text(parsed.jobTitle),
  };
}

/**
 * Public (visitors only): stores the sign-up and mails its link, in one transaction. An address with
 * an account, or with a sign-up still waiting for its confirmation, is told so and mailed nothing; a
 * sign-up whose link expired is replaced. Of two sign-ups racing with one address, the unique index
 * of pending sign-ups (migration 024) keeps one; the other is told it is pending.
 */
export async function requestSignup(ctx: AppContext, actor: Actor, input: SignupBody): Promise<{ ok: true }> {
  // Every sign-up is answered no sooner than this after it came, whatever its outcome: longer than
  // the work takes, so the time of an answer tells nothing its body does not (docs/decisions/067).
  const floor = sleep(ctx.config.signupAnswerFloorMs);
  try {
    await register(ctx, actor, input);
    return { ok: true };
  } finally {
    await floor;
  }
}

async function register(ctx: AppContext, actor: Actor, input: SignupBody): Promise<void> {
  const { db, config } = ctx;
  const email = input.email;
  const locale = input.locale ?? DEFAULT_LOCALE;
  if (await emailHasAccount(db, email)) throw alreadyExists();
  const pending = await repo.findPendingSignup(db, email);
  if (pending && Date.parse(pending.expiresAt) > Date.now()) throw pendingInvitation();
  const invitedFullName = `${input.firstName} ${input.lastName}`;
  const form: SignupData = {
    firstName: input.firstName,
    lastName: input.lastName,
    companyName: input.companyName,
    jobTitle: input.jobTitle,
  };
  try {
    await db.transaction().execute(async (trx) => {
      const { key, keyHash, keySealed } = issueInvitationKey(config.sessionSecret);
      const now = new Date();
      const sentAt = now.toISOString();
      const expiresAt = new Date(now.getTime() + VALIDITY_MS).toISOString();
      const values = { invitedFullName, locale, signupData: JSON.stringify(form), sentAt, expiresAt };
      if (pending) {
        // expired: a new key and expiry, unless another request renewed or confirmed it meanwhile
        if (!(await repo.renewExpiredSignup(trx, pending.id, sentAt, { ...values, keyHash, keySealed }))) {
          throw pendingInvitation();
        }
      } else {
        await insertInvitation(trx, {
          ...values,
          key,
          keySealed,
          customerId: null,
          inviterId: null,
          invitedEmail: email,
          role: 'businessOwner',
          state: 'pending',
          selfService: 1,
          acceptedAt: null,
          acceptedUserId: null,
          createdAt: sentAt,
        });
      }
      await insertAuditEntry(trx, {
        customerId: null,
        by: auditActorOf(actor),
        action: 'requestSignup',
        data: { email, companyName: input.companyName, renewed: pending !== undefined },
        createdAt: sentAt,
      });
      await ctx.mail.send(
        {
          to: email,
          template: 'signupConfirmation',
          locale,
          data: {
            fullName: invitedFullName,
            companyName: input.companyName,
            link: signupConfirmationLink(config.baseUrl, locale, key),
            validityHours: INVITATION_VALIDITY_DAYS * 24,
          },
        },
        trx,
      );
    });
  } catch (error) {
    // another sign-up of this address was stored first
    if (isUniqueViolation(error)) throw pendingInvitation();
    throw error;
  }
}

/** A sign-up that can no longer be confirmed answers why; a live one passes. */
function assertUsable(row: repo.SignupRow | undefined, now: string): asserts row is repo.SignupRow {
  if (!row || row.state === 'cancelled') throw invalid();
  if (row.state === 'accepted' || row.acceptedAt !== null) throw confirmed();
  if (row.expiresAt <= now) throw expired();
}

/** Public: what the confirmation page shows and prefills. */
export async function getSignup(ctx: AppContext, _actor: Actor, input: SignupKeyParam): Promise<SignupPreview> {
  const row = await repo.findSignupByHash(ctx.db, invitationKeyHash(input.key));
  assertUsable(row, nowIso());
  return {
    email: row.invitedEmail,
    invitedFullName: row.invitedFullName,
    companyName: readSignupData(row.signupData).companyName,
  };
}

/** The request's address and browser, not the session it came with (the new account has none yet). */
function newcomerOrigin(actor: Actor): Origin {
  const origin = originOf(actor);
  return { ip: origin?.ip ?? '', userAgent: origin?.userAgent ?? null, sessionHash: null };
}

/** Why a claim that lost failed, read again inside the transaction. */
async function lostClaim(db: DB, key: string, now: string): Promise<HttpError> {
  try {
    assertUsable(await repo.findSignupByHash(db, invitationKeyHash(key)), now);
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  return confirmed();
}

/**
 * Public (the key is the credential): confirms the sign-up. In one transaction: the claim first (a
 * request racing this one stops there), the client account in the sign-up's language, the
 * self-service customer in trial named after the company, the project manager's membership, the
 * invitation pointing at both with the wizard's answers, the `confirmSignup` entry, the trial's
 * cloud instance (its order to the provisioner queued) and the `member.joined` webhook. The account
 * is then signed in, replacing the caller's session if any.
 */
export async function confirmSignup(
  ctx: AppContext,
  actor: Actor,
  input: SignupKeyParam & SignupConfirmBody,
): Promise<{ session: string; body: SignupConfirmResult }> {
  const { db } = ctx;
  const row = await repo.findSignupByHash(db, invitationKeyHash(input.key));
  assertUsable(row, nowIso());
  if (await emailHasAccount(db, row.invitedEmail)) throw alreadyExists();
  const form = readSignupData(row.signupData);
  assertPasswordAcceptable(input.password, {
    email: row.invitedEmail,
    names: [input.firstName, input.lastName, form.companyName],
  });
  // Hashing is slow: do it before the transaction, not inside.
  const passwordHash = await hashPassword(input.password);
  let created: { userId: number; customerId: number };
  try {
    created = await db.transaction().execute(async (trx) => {
      const now = nowIso();
      if (!(await repo.claimSignup(trx, row.id, now))) throw await lostClaim(trx, input.key, now);
      const fullName = `${input.firstName} ${input.lastName}`;
      const user = await insertUser(trx, {
        email: row.invitedEmail,
        fullName,
        type: 'client',
        preferredLocale: row.locale,
        passwordHash,
      });
      const by = auditUser(user);
      // what the new account does in this transaction is its own, wherever the request came from
      const asNewUser: Actor = { kind: 'user', user, ...newcomerOrigin(actor) };
      const customer = await addCustomer(ctx, trx, by, {
        name: form.companyName,
        customerKey: await unusedCustomerKey(trx),
        selfService: true,
      });
      await insertMembership(trx, { userId: user.id, customerId: customer.id, role: 'businessOwner' });
      const answers = {
        useCase: input.useCase,
        graphDB: input.graphDB,
        segmentationInfo: input.segmentationInfo ?? null,
      };
      await repo.recordConfirmation(trx, row.id, {
        customerId: customer.id,
        acceptedUserId: user.id,
        signupData: JSON.stringify({ ...form, ...answers }),
      });
      await insertAuditEntry(trx, {
        customerId: customer.id,
        by,
        action: 'confirmSignup',
        data: { email: user.email, fullName, companyName: form.companyName, jobTitle: form.jobTitle, ...answers },
        createdAt: now,
      });
      // its trial's cloud instance, ordered from the provisioner once this commits (docs/instances.md)
      await createTrialInstance(ctx, trx, asNewUser, { customerId: customer.id });
      await emitWebhook(ctx, trx, 'member.joined', {
        customerId: customer.id,
        userId: user.id,
        email: user.email,
        fullName,
        role: 'businessOwner',
      });
      return { userId: user.id, customerId: customer.id };
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // an account made for this address meanwhile (the users' unique index); else a generated key taken
    if (await emailHasAccount(db, row.invitedEmail)) throw alreadyExists();
    throw new HttpError(409, ERROR_CODES.conflict, SIGNUP_MESSAGES.retry);
  }
  const session = await startSession(ctx, actor, created.userId);
  return { session, body: { customerId: created.customerId } };
}
