import { z } from 'zod/mini';
import { LOCALES, MEMBER_ROLES, ROLES, USER_TYPES } from '../roles';
import { ProfileAbilities } from './abilities';
import { confirmationMatches, Email, NewPassword, passwordFitsContext, REQUIRED, RequiredText } from './common';

/** The password one signs in with: any text, required. */
const CurrentPassword = z.string().check(z.minLength(1, REQUIRED), z.maxLength(1024));

export const LoginBody = z.object({
  email: Email,
  password: CurrentPassword,
  recaptchaResponse: z.optional(z.string().check(z.maxLength(4096))),
});
export type LoginBody = z.infer<typeof LoginBody>;

export const AccountSummary = z.object({
  id: z.int(),
  name: z.string(),
  role: z.enum(MEMBER_ROLES),
  accountExecutive: z.nullable(z.object({ fullName: z.string(), email: z.string() })),
});
export type AccountSummary = z.infer<typeof AccountSummary>;

/** The signed-in user's profile (spec section 3 "Profile", plus what the top bar needs). */
export const Profile = z.object({
  id: z.int(),
  email: z.string(),
  fullName: z.string(),
  preferredLocale: z.enum(LOCALES),
  type: z.enum(USER_TYPES),
  yourRole: z.nullable(z.enum(ROLES)),
  /** Customers the user belongs to (first 50, by name); `accountsTotal` counts them all. */
  accounts: z.array(AccountSummary),
  accountsTotal: z.int(),
  /** what the user may do, the pages they see and the top bar's links (server/modules/auth/policy.ts) */
  can: ProfileAbilities,
  /** REQUIRE_2FA_FOR names the user's type and they have no second factor: they must add one first */
  twoFactorSetupRequired: z.optional(z.boolean()),
});
export type Profile = z.infer<typeof Profile>;

/**
 * A change of `email` is not applied at once: it needs `currentPassword`, and takes effect when the
 * link mailed to the new address is followed (POST /api/auth/confirm-email).
 */
export const UpdateProfileBody = z.partial(
  z.strictObject({
    email: Email,
    fullName: RequiredText(200),
    preferredLocale: z.enum(LOCALES),
    currentPassword: CurrentPassword,
  }),
);
export type UpdateProfileBody = z.infer<typeof UpdateProfileBody>;

export const ConfirmEmailBody = z.object({ token: z.string().check(z.minLength(1), z.maxLength(200)) });
export type ConfirmEmailBody = z.infer<typeof ConfirmEmailBody>;

/** The address the account now has. */
export const ConfirmEmailResult = z.object({ email: z.string() });
export type ConfirmEmailResult = z.infer<typeof ConfirmEmailResult>;

export const RequestPasswordResetBody = z.object({
  email: Email,
  recaptchaResponse: z.string().check(z.minLength(1, REQUIRED), z.maxLength(4096)),
});
export type RequestPasswordResetBody = z.infer<typeof RequestPasswordResetBody>;

export const CheckPasswordResetQuery = z.object({
  passwordResetToken: z.string().check(z.minLength(1), z.maxLength(200)),
});

export const ResetPasswordBody = z.object({
  passwordResetToken: z.string().check(z.minLength(1), z.maxLength(200)),
  password: NewPassword,
});
export type ResetPasswordBody = z.infer<typeof ResetPasswordBody>;

/** The address of the account whose password was chosen, so the sign-in form can be filled with it. */
export const ResetPasswordResult = z.object({ ok: z.literal(true), email: z.string() });
export type ResetPasswordResult = z.infer<typeof ResetPasswordResult>;

/**
 * `GET /api/auth/check-password-reset`: the link is usable, and the account's address, so the reset
 * form applies the personal rule as one types (the link came to that address; the reset answers it
 * too).
 */
export const CheckPasswordResetResult = z.object({ ok: z.literal(true), email: z.string() });
export type CheckPasswordResetResult = z.infer<typeof CheckPasswordResetResult>;

/** The reset form: the new password twice; the confirmation is the client's concern only. */
export const ResetPasswordForm = z
  .object({ password: NewPassword, confirmation: z.string() })
  .check(confirmationMatches());
export type ResetPasswordForm = z.infer<typeof ResetPasswordForm>;

/** The reset form of the account at `email`: nor may the password be made of the address. */
export const resetPasswordFormFor = (email: string | null) =>
  ResetPasswordForm.check(passwordFitsContext<ResetPasswordForm>('password', () => ({ email })));

/** Key derivation of the self-hosted captcha; the widget solves it with the bundled PBKDF2 worker. */
export const CAPTCHA_ALGORITHM = 'PBKDF2/SHA-256';

/** Self-hosted proof-of-work captcha challenge, in the ALTCHA (v2) format (docs/decisions/003). */
export const CaptchaChallenge = z.object({
  parameters: z.object({
    algorithm: z.literal(CAPTCHA_ALGORITHM),
    nonce: z.string(),
    salt: z.string(),
    cost: z.int(),
    keyLength: z.int(),
    keyPrefix: z.string(),
    keySignature: z.string(),
    expiresAt: z.int(),
  }),
  signature: z.string(),
});
export type CaptchaChallenge = z.infer<typeof CaptchaChallenge>;

/** Public configuration the client needs before sign-in. */
export const PublicConfig = z.object({
  captcha: z.discriminatedUnion('provider', [
    z.object({ provider: z.literal('builtin') }),
    z.object({ provider: z.literal('recaptcha'), siteKey: z.string() }),
  ]),
  supportUrl: z.string(),
  academyUrl: z.string(),
  /** a customer's telemetry dashboard; `{customerKey}` and `{id}` stand for the customer's */
  telemetryUrl: z.string(),
  contactEmail: z.string(),
  legalBaseUrl: z.nullable(z.string()),
  devMailbox: z.boolean(),
  /** visitors may sign up for a self-service trial (SELF_SERVICE_SIGNUP): the sign-in page links to it */
  selfServiceSignup: z.boolean(),
  /** a support desk is set up (SUPPORT_JWT_SECRET): the sign-in page offers to sign in to it */
  supportDesk: z.boolean(),
});
export type PublicConfig = z.infer<typeof PublicConfig>;
