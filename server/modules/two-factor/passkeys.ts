import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { CredentialJson } from '../../../common/api/two-factor';
import type { Config } from '../../config';

/**
 * WebAuthn ceremonies with @simplewebauthn/server. The relying party is the portal's own host and
 * origin, taken from BASE_URL, so a passkey made for the portal is offered on it alone. Passkeys are
 * made discoverable (resident) so that they also sign in without a password; that sign-in requires
 * user verification (a PIN or a biometric), which makes the passkey two factors on its own.
 */
const RP_NAME = 'Customer portal';
const TIMEOUT_MS = 120_000;

const relyingParty = (config: Config) => {
  const url = new URL(config.baseUrl);
  return { rpID: url.hostname, origin: url.origin };
};

interface StoredPasskey {
  credentialId: string;
  transports: string;
}

const transportsOf = (row: StoredPasskey) => JSON.parse(row.transports) as string[];

export function registrationOptions(
  config: Config,
  user: { id: number; email: string; fullName: string },
  existing: StoredPasskey[],
) {
  return generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: relyingParty(config).rpID,
    userName: user.email,
    userDisplayName: user.fullName,
    userID: new TextEncoder().encode(`portal-user-${user.id}`),
    timeout: TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((row) => ({ id: row.credentialId, transports: transportsOf(row) })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
}

/** The new credential, or null when the answer does not prove one for this challenge and origin. */
export async function verifyRegistration(config: Config, credential: CredentialJson, challenge: string) {
  const { rpID, origin } = relyingParty(config);
  try {
    const result = await verifyRegistrationResponse({
      response: credential as unknown as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: false,
    });
    if (!result.verified) return null;
    const { credential: made } = result.registrationInfo;
    return {
      credentialId: made.id,
      publicKey: Buffer.from(made.publicKey).toString('base64url'),
      counter: made.counter,
      transports: made.transports ?? [],
    };
  } catch {
    return null;
  }
}

/** Options for a sign-in: with the user's passkeys at the second step, any passkey without a password. */
export function authenticationOptions(config: Config, allowed: StoredPasskey[] | null) {
  return generateAuthenticationOptions({
    rpID: relyingParty(config).rpID,
    timeout: TIMEOUT_MS,
    allowCredentials: allowed?.map((row) => ({ id: row.credentialId, transports: transportsOf(row) })),
    userVerification: allowed ? 'preferred' : 'required',
  });
}

/** The passkey's new signature counter, or null when the assertion does not verify. */
export async function verifyAuthentication(
  config: Config,
  credential: CredentialJson,
  challenge: string,
  stored: StoredPasskey & { publicKey: string; counter: number },
  requireUserVerification: boolean,
): Promise<number | null> {
  const { rpID, origin } = relyingParty(config);
  try {
    const result = await verifyAuthenticationResponse({
      response: credential as unknown as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: {
        id: stored.credentialId,
        publicKey: Buffer.from(stored.publicKey, 'base64url'),
        counter: stored.counter,
        transports: transportsOf(stored) as never,
      },
      requireUserVerification,
    });
    return result.verified ? result.authenticationInfo.newCounter : null;
  } catch {
    return null;
  }
}
