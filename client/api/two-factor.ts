import {
  type AddPasskeyBody,
  type ConfirmIdentityBody,
  type ConfirmTotpBody,
  FactorAdded,
  RecoveryCodes,
  TotpEnrolment,
  TwoFactorStatus,
  WebAuthnOptions,
} from '../../common/api/two-factor';
import { Ok } from '../../common/api/common';
import { api } from './client';
import { queryOptions } from './query-options';

/** One's own second factors (settings page) and an admin's reset (users page). */
export const twoFactorKeys = { status: ['two-factor'] as const };

export const twoFactorQuery = () =>
  queryOptions({
    queryKey: twoFactorKeys.status,
    queryFn: () => api.get('/auth/two-factor', { schema: TwoFactorStatus }),
  });

export const passkeyRegistrationOptions = () =>
  api.post('/auth/two-factor/passkeys/options', {}, { schema: WebAuthnOptions });
export const addPasskey = (body: AddPasskeyBody) =>
  api.post('/auth/two-factor/passkeys', body, { schema: FactorAdded });
export const renamePasskey = (id: number, name: string) =>
  api.patch(`/auth/two-factor/passkeys/${id}`, { name }, { schema: TwoFactorStatus });
export const removePasskey = (id: number, identity: ConfirmIdentityBody) =>
  api.delete(`/auth/two-factor/passkeys/${id}`, { body: identity, schema: TwoFactorStatus });
export const startTotp = () => api.post('/auth/two-factor/totp', {}, { schema: TotpEnrolment });
export const confirmTotp = (body: ConfirmTotpBody) =>
  api.post('/auth/two-factor/totp/confirm', body, { schema: FactorAdded });
export const renameTotp = (name: string) => api.patch('/auth/two-factor/totp', { name }, { schema: TwoFactorStatus });
export const removeTotp = (identity: ConfirmIdentityBody) =>
  api.delete('/auth/two-factor/totp', { body: identity, schema: TwoFactorStatus });
export const regenerateRecoveryCodes = (identity: ConfirmIdentityBody) =>
  api.post('/auth/two-factor/recovery-codes', identity, { schema: RecoveryCodes });
export const resetTwoFactor = (userId: number) => api.delete(`/users/${userId}/two-factor`, { schema: Ok });
