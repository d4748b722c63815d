import { z } from 'zod/mini';
import { RequiredText } from './common';

/** Two-factor sign-in (docs/security.md, "Two-factor sign-in"; docs/decisions/071). */

export const TWO_FACTOR_CHALLENGE_KINDS = ['signIn', 'passkeySignIn', 'passkeyRegistration'] as const;
export type TwoFactorChallengeKind = (typeof TWO_FACTOR_CHALLENGE_KINDS)[number];

const SECOND_FACTOR_METHODS = ['passkey', 'totp', 'recoveryCode'] as const;
export type SecondFactorMethod = (typeof SECOND_FACTOR_METHODS)[number];

/** The cookie a pending sign-in is bound to, between the password and the second factor. */
export const PENDING_SIGN_IN_COOKIE = 'portal_pending_sign_in';
/** How long the second step may take after the password. */
export const PENDING_SIGN_IN_MS = 5 * 60_000;
export const RECOVERY_CODE_COUNT = 10;

/** `POST /api/auth/login`'s answer when the account has a second factor: no session yet. */
export const SecondFactorNeeded = z.object({
  secondFactor: z.object({ methods: z.array(z.enum(SECOND_FACTOR_METHODS)) }),
});
export type SecondFactorNeeded = z.infer<typeof SecondFactorNeeded>;

const FactorName = RequiredText(100);
/** A one-time code as typed: spaces and dashes are ignored by the server. */
const Code = z.string().check(z.trim(), z.minLength(1, 'errors.required'), z.maxLength(40));

/** What an authenticator answers (WebAuthn's JSON form); @simplewebauthn/server checks the rest. */
const CredentialJson = z.looseObject({
  id: z.string().check(z.minLength(1), z.maxLength(1400)),
  rawId: z.string().check(z.maxLength(1400)),
  type: z.literal('public-key'),
  response: z.looseObject({ clientDataJSON: z.string().check(z.maxLength(8192)) }),
  clientExtensionResults: z.optional(z.record(z.string(), z.unknown())),
});
export type CredentialJson = z.infer<typeof CredentialJson>;

export const SecondFactorBody = z.discriminatedUnion('method', [
  z.object({ method: z.literal('totp'), code: Code }),
  z.object({ method: z.literal('recoveryCode'), code: Code }),
  z.object({ method: z.literal('passkey'), credential: CredentialJson }),
]);
export type SecondFactorBody = z.infer<typeof SecondFactorBody>;

/** WebAuthn options as the browser package takes them (built by @simplewebauthn/server). */
export const WebAuthnOptions = z.record(z.string(), z.unknown());
export type WebAuthnOptions = z.infer<typeof WebAuthnOptions>;

const PasskeyInfo = z.object({
  id: z.int(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.nullable(z.string()),
});

export const TwoFactorStatus = z.object({
  passkeys: z.array(PasskeyInfo),
  totp: z.nullable(z.object({ name: z.string(), createdAt: z.string(), lastUsedAt: z.nullable(z.string()) })),
  recoveryCodesLeft: z.int(),
  /** REQUIRE_2FA_FOR names the user's type: a factor must stay */
  required: z.boolean(),
});
export type TwoFactorStatus = z.infer<typeof TwoFactorStatus>;

export const AddPasskeyBody = z.object({ name: FactorName, credential: CredentialJson });
export type AddPasskeyBody = z.infer<typeof AddPasskeyBody>;
export const RenameBody = z.object({ name: FactorName });
export type RenameBody = z.infer<typeof RenameBody>;

/** The start of an authenticator app's enrolment: shown once. */
export const TotpEnrolment = z.object({
  secret: z.string(),
  uri: z.string(),
  /** the otpauth URI as a QR code, an SVG document */
  qrSvg: z.string(),
});
export type TotpEnrolment = z.infer<typeof TotpEnrolment>;

export const ConfirmTotpBody = z.object({ code: Code, name: z.optional(FactorName) });
export type ConfirmTotpBody = z.infer<typeof ConfirmTotpBody>;

/** A factor added: the recovery codes when they were made now (the first factor), shown once. */
export const FactorAdded = z.object({ status: TwoFactorStatus, recoveryCodes: z.nullable(z.array(z.string())) });
export type FactorAdded = z.infer<typeof FactorAdded>;

/**
 * Removing a factor or making new recovery codes asks who is there again: the current password, or
 * a code of the authenticator app (docs/decisions/071). A session alone is not enough.
 */
export const ConfirmIdentityBody = z.object({
  password: z.optional(z.string().check(z.maxLength(1024))),
  code: z.optional(z.string().check(z.trim(), z.maxLength(40))),
});
export type ConfirmIdentityBody = z.infer<typeof ConfirmIdentityBody>;

export const RecoveryCodes = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof RecoveryCodes>;
