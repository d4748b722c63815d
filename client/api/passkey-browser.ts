import type { CredentialJson, WebAuthnOptions } from '../../common/api/two-factor';

/**
 * The browser's side of passkeys, with @simplewebauthn/browser loaded only when a passkey is used:
 * the sign-in page stays light for those who type a password.
 */
export const passkeysSupported = () =>
  typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

export async function passkeyAssertion(options: WebAuthnOptions): Promise<CredentialJson> {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  return (await startAuthentication({ optionsJSON: options as never })) as unknown as CredentialJson;
}

export async function passkeyCreation(options: WebAuthnOptions): Promise<CredentialJson> {
  const { startRegistration } = await import('@simplewebauthn/browser');
  return (await startRegistration({ optionsJSON: options as never })) as unknown as CredentialJson;
}

/** The person closed the browser's passkey dialog or let it time out: not an error to show. */
export const passkeyCancelled = (error: unknown) =>
  error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError');
