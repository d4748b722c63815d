import { z } from 'zod/mini';

/**
 * A problem tied to a field of the request: `message` is a message key (client/i18n), never a
 * sentence; `values` fills the placeholders its text names (`{{max}}`).
 */
export const ErrorDetail = z.object({
  path: z.string(),
  message: z.string(),
  values: z.optional(z.record(z.string(), z.union([z.string(), z.number()]))),
});
export type ErrorDetail = z.infer<typeof ErrorDetail>;

/**
 * The one error body of the API: `{ error: { code, message, details? } }`. `message` is English, for
 * the developer of a client; a screen shows the texts of the details' keys, or of the code.
 */
export const ErrorBody = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z
      .optional(z.array(ErrorDetail))
      .check(
        z.describe(
          'problems tied to a field of the request, one per field: validation, a conflict (e-mail taken), or a field the next attempt needs (recaptchaResponse); each message is a message key',
        ),
      ),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Stable error codes the client may branch on. */
export const ERROR_CODES = {
  validation: 'validation_error',
  unauthenticated: 'unauthenticated',
  forbidden: 'forbidden',
  notFound: 'not_found',
  conflict: 'conflict',
  emailTaken: 'email_taken',
  customerKeyTaken: 'customer_key_taken',
  cannotDisableSelf: 'cannot_disable_self',
  cannotEditSelf: 'cannot_edit_self',
  alreadyMember: 'already_member',
  invitationPending: 'invitation_pending',
  roleNotAllowed: 'role_not_allowed',
  localeNotAllowed: 'locale_not_allowed',
  linkUnavailable: 'link_unavailable',
  badCredentials: 'bad_credentials',
  captchaRequired: 'captcha_required',
  captchaInvalid: 'captcha_invalid',
  rateLimited: 'rate_limited',
  loginDelayed: 'login_delayed',
  // two-factor sign-in (docs/decisions/071)
  /** a wrong, used or replayed second factor (a code, a recovery code, a passkey) */
  secondFactorInvalid: 'second_factor_invalid',
  /** no pending sign-in, or it expired: sign in again with the password */
  signInExpired: 'sign_in_expired',
  /** REQUIRE_2FA_FOR: the user must add a second factor before anything else */
  twoFactorRequired: 'two_factor_required',
  /** removing a factor or remaking recovery codes: the current password, or an authenticator code, first */
  identityConfirmationRequired: 'identity_confirmation_required',
  invalidToken: 'invalid_token',
  wrongPassword: 'wrong_password',
  crossOrigin: 'cross_origin',
  payloadTooLarge: 'payload_too_large',
  uriTooLong: 'uri_too_long',
  unsupportedMediaType: 'unsupported_media_type',
  internal: 'internal_error',
  // accepting an invitation
  invitationInvalid: 'invitation_invalid',
  invitationExpired: 'invitation_expired',
  invitationCancelled: 'invitation_cancelled',
  invitationAccepted: 'invitation_accepted',
  invitationOtherEmail: 'invitation_other_email',
  invitationAccountExists: 'invitation_account_exists',
  invitationAlreadyMember: 'invitation_already_member',
  invitationRoleMismatch: 'invitation_role_mismatch',
  // self-service sign-up (docs/decisions/067): spec 4 reads "already exists" and "pending invitation"
  signupAlreadyExists: 'signup_already_exists',
  signupPendingInvitation: 'signup_pending_invitation',
  signupInvalid: 'signup_invalid',
  signupExpired: 'signup_expired',
  signupConfirmed: 'signup_confirmed',
  /** a route for visitors only (signing up), called with a session */
  signedIn: 'signed_in',
  // licences
  unknownProduct: 'unknown_product',
  licenceExists: 'licence_exists',
  /** the licence has ended more than its grace period ago: no download (decisions.md) */
  licenceExpired: 'licence_expired',
  // the catalogue
  productExists: 'product_exists',
  versionExists: 'version_exists',
  /** a published version keeps its title and semVer and stays published; its artifacts cannot be replaced or removed */
  versionPublished: 'version_published',
  /** the artifact storage has no space left (ENOSPC, EDQUOT): the upload was not stored (507) */
  storageFull: 'storage_full',
  /** a download's Range starts past the end of the file (416) */
  rangeNotSatisfiable: 'range_not_satisfiable',
  // an optional integration the request needs is not set up on this portal (409: the caller's
  // request, not a fault of the server; the abilities say so beforehand)
  /** the CRM (Salesforce) sync */
  crmNotConfigured: 'crm_not_configured',
  /** the support desk's sign-on (SUPPORT_JWT_SECRET) */
  supportDeskNotConfigured: 'support_desk_not_configured',
  /** card payments (Stripe, or the test checkout outside production) */
  paymentNotConfigured: 'payment_not_configured',
  /** the database cannot be reached for a moment (503, with Retry-After) */
  unavailable: 'service_unavailable',
  // self-service payment (docs/billing.md)
  /** only a self-service customer pays by card in the portal */
  notSelfService: 'not_self_service',
  /** the subscription runs or owes a payment: it is managed, not bought again */
  subscriptionRunning: 'subscription_running',
  /** nothing at the payment provider yet to manage */
  noSubscription: 'no_subscription',
  /** the CRM (Salesforce) refused the sync or could not be reached (502); the message is its answer */
  crmError: 'crm_error',
  /** the payment provider answered with an error or could not be reached (502) */
  paymentProvider: 'payment_provider_error',
  // Idempotency-Key on creating requests
  idempotencyKeyReused: 'idempotency_key_reused',
  idempotencyInProgress: 'idempotency_in_progress',
} as const;
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];
