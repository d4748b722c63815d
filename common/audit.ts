/**
 * The actions of a customer's audit log (spec section 3, "Log entry"): every change made through the
 * portal to a customer's data is written under one of these names, and the recent-actions section and
 * its filter read the same list. A name outside it does not typecheck on either side.
 */
export const AUDIT_ACTIONS = [
  'createCustomer',
  'updateCustomer',
  'setAccountExecutive',
  'inviteMember',
  'resendInvitation',
  'cancelInvitation',
  'acceptInvitation',
  'updateMemberStatus',
  'updateNotificationSettings',
  'downloadArtifact',
  'createLicence',
  'renewLicence',
  'rotateDownloadSecret',
  'downloadLicenceFile',
  'createCustomization',
  'updateCustomization',
  /** a self-service sign-up confirmed: the customer's first entry after its creation (docs/decisions/067) */
  'confirmSignup',
  // self-service billing (docs/billing.md)
  'startCheckout',
  'updatePaymentStatus',
  'renewSubscription',
  // cloud instances (docs/instances.md)
  'createInstance',
  'updateInstanceStatus',
  'archiveInstance',
  'restoreInstance',
  'deleteInstanceData',
  /** the customer pushed to the CRM (docs/crm.md), by a person or the on-change job */
  'syncCustomerToCrm',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export function isAuditAction(value: unknown): value is AuditAction {
  return typeof value === 'string' && (AUDIT_ACTIONS as readonly string[]).includes(value);
}

/**
 * The actions of the catalogue, which belong to no customer (docs/decisions/059): written with no
 * customer, so no customer's recent actions show them.
 */
export const CATALOGUE_AUDIT_ACTIONS = [
  'createProduct',
  'updateProduct',
  'createVersion',
  'updateVersion',
  'publishVersion',
  'uploadArtifact',
  'deleteArtifact',
  'createProductToken',
  'revokeProductToken',
] as const;
export type CatalogueAuditAction = (typeof CATALOGUE_AUDIT_ACTIONS)[number];

/**
 * The actions on the portal's own settings (webhook endpoints, docs/webhooks.md), which belong to no
 * customer either: written with none, like the catalogue's.
 */
export const SETTINGS_AUDIT_ACTIONS = [
  'createWebhook',
  'updateWebhook',
  'deleteWebhook',
  'resendWebhookDelivery',
] as const;
export type SettingsAuditAction = (typeof SETTINGS_AUDIT_ACTIONS)[number];

/**
 * A visitor's sign-up before it is confirmed (docs/decisions/067): no customer exists yet, so it is
 * written with none, like the catalogue's.
 */
export const SIGNUP_AUDIT_ACTIONS = ['requestSignup'] as const;
export type SignupAuditAction = (typeof SIGNUP_AUDIT_ACTIONS)[number];

/**
 * An admin's change to another user's sign-in (docs/security.md, "Two-factor sign-in"): it belongs to
 * no customer, so it is written with none, like the catalogue's.
 */
export const ACCOUNT_AUDIT_ACTIONS = ['resetTwoFactor'] as const;
export type AccountAuditAction = (typeof ACCOUNT_AUDIT_ACTIONS)[number];

/**
 * Who acted, as an entry records it: a signed-in user, an anonymous visitor (the secret download
 * URL), a product API token, an integration (a payment provider's webhook, a provisioner), a job,
 * or the portal itself (the operator's command line).
 */
export const AUDIT_ACTOR_KINDS = ['user', 'anonymous', 'token', 'integration', 'job', 'system'] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];
