import { z } from 'zod/mini';
import { INVITATION_STATUSES } from '../domain';
import { MEMBER_ROLES } from '../roles';
import { confirmationMatches, NewPassword, passwordFitsContext, RequiredText } from './common';

/** The key an invitation link carries (/{locale}/invitation/{key}): base64url text. */
export const InvitationKeyParam = z.object({
  key: z.string().check(z.minLength(1), z.maxLength(100), z.regex(/^[A-Za-z0-9_-]+$/, 'apiErrors.invitation_invalid')),
});
export type InvitationKeyParam = z.infer<typeof InvitationKeyParam>;

/**
 * What the invitation page shows before joining (spec section 3, "Invitation"): whom it comes from,
 * for which customer and role, and whether the invited address still needs an account (`newUser`).
 */
export const InvitationPreview = z.object({
  customerName: z.string(),
  role: z.enum(MEMBER_ROLES),
  /** null once the inviter's account is gone */
  inviterFullName: z.nullable(z.string()),
  invitedFullName: z.string(),
  newUser: z.boolean(),
  status: z.enum(INVITATION_STATUSES),
});
export type InvitationPreview = z.infer<typeof InvitationPreview>;

export const FULL_NAME_MAX = 200;

/** Joining with a new account: the name it will carry and its password. */
export const AcceptNewInvitationBody = z.object({ fullName: RequiredText(FULL_NAME_MAX), password: NewPassword });
export type AcceptNewInvitationBody = z.infer<typeof AcceptNewInvitationBody>;

/**
 * The sign-up form of the invitation page: the body plus a confirmation that must match, and a
 * password not made of the name typed (the invited address, which the page does not hold, is the
 * server's to check).
 */
export const AcceptNewInvitationForm = z
  .object({ fullName: RequiredText(FULL_NAME_MAX), password: NewPassword, confirmation: z.string() })
  .check(confirmationMatches())
  .check(
    passwordFitsContext<{ fullName: string; password: string; confirmation: string }>('password', (values) => ({
      names: [values.fullName],
    })),
  );
export type AcceptNewInvitationForm = z.infer<typeof AcceptNewInvitationForm>;

/** The customer just joined, whose page opens next. */
export const AcceptInvitationResult = z.object({ customerId: z.int() });
export type AcceptInvitationResult = z.infer<typeof AcceptInvitationResult>;
