/**
 * The actions of the audit log (spec section 3, "Log entry"): every change made through the portal to
 * a customer's data is written under one of these names, and the recent-actions section and its filter
 * read the same list. A name outside it does not typecheck on either side.
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
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export function isAuditAction(value: unknown): value is AuditAction {
  return typeof value === 'string' && (AUDIT_ACTIONS as readonly string[]).includes(value);
}
