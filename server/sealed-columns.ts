import { MAIL_SEAL } from './mail/body';
import { INVITATION_SEAL } from './modules/invitations/keys';
import { LICENCE_KEY_SEAL } from './modules/licence-files/keys';
import { OIDC_KEY_SEAL } from './modules/oidc/signing-keys';
import { TOTP_SEAL } from './modules/two-factor/totp';
import { WEBHOOK_SEAL } from './modules/webhooks/secrets';
import type { SealedColumn } from './security/reseal';

/**
 * Every column that keeps values sealed under the server secret (server/security/seal.ts): what a
 * start after a SESSION_SECRET rotation reseals (server/security/reseal.ts). A new sealed column
 * gets its line here; server/security/rotation.test.ts checks that every `*_sealed` column of the
 * schema has one.
 */
export const SEALED_COLUMNS: readonly SealedColumn[] = [
  { table: 'licenceSigningKeys', key: 'keyId', column: 'privateKeySealed', purpose: LICENCE_KEY_SEAL },
  { table: 'oidcSigningKeys', key: 'keyId', column: 'privateKeySealed', purpose: OIDC_KEY_SEAL },
  { table: 'invitations', key: 'id', column: 'keySealed', purpose: INVITATION_SEAL },
  { table: 'webhookEndpoints', key: 'id', column: 'secretSealed', purpose: WEBHOOK_SEAL },
  // the built-in test checkout's event secret is sealed as a webhook secret is
  { table: 'testCheckoutSecrets', key: 'id', column: 'secretSealed', purpose: WEBHOOK_SEAL },
  { table: 'totpAuthenticators', key: 'id', column: 'secretSealed', purpose: TOTP_SEAL },
  { table: 'mailOutbox', key: 'id', column: 'bodySealed', purpose: MAIL_SEAL },
];
