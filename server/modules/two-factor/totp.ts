import { type OpeningSecrets, sealText, unsealText } from '../../security/seal';
import * as OTPAuth from 'otpauth';
import QRCode from 'qrcode';

/**
 * The authenticator app (RFC 6238) with otpauth: SHA-1, 6 digits, 30-second steps, the parameters
 * every authenticator app reads from a QR code. One step either side is accepted for clock drift; a
 * step is accepted once (repo.acceptTotpStep), so an overheard code cannot be replayed.
 *
 * The portal must compute the codes, so it keeps the secret itself, sealed with AES-256-GCM under a
 * key derived from the server secret (like webhook secrets): a copy of the database alone computes
 * no code.
 */
const PERIOD = 30;
const WINDOW = 1;

const ISSUER = 'Customer portal';

function totpOf(secretBase32: string, label = '') {
  return new OTPAuth.TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD,
    secret: OTPAuth.Secret.fromBase32(secretBase32),
  });
}

export function newTotpSecret(): string {
  return new OTPAuth.Secret({ size: 20 }).base32;
}

/** The otpauth:// URI an app reads, and the same as a QR code (an SVG document drawn here). */
export async function enrolmentOf(secret: string, account: string) {
  const uri = totpOf(secret, account).toString();
  const qrSvg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { uri, qrSvg };
}

/** The time step a code is valid for, or null when it is valid for none near `now`. */
export function matchingStep(secret: string, code: string, now = Date.now()): number | null {
  const token = code.replace(/[\s-]/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpOf(secret).validate({ token, timestamp: now, window: WINDOW });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD) + delta;
}

/** The code of a step; tests compute codes as an app would. */
export function codeAt(secret: string, timestamp: number): string {
  return totpOf(secret).generate({ timestamp });
}

export const TOTP_SEAL = { salt: 'totp-secrets', info: 'portal authenticator app secret' };

export const sealTotpSecret = (serverSecret: string, secret: string) => sealText(serverSecret, TOTP_SEAL, secret);

/** The secret, or null when it was sealed under another server secret or altered. */
export const unsealTotpSecret = (serverSecrets: OpeningSecrets, sealed: string) =>
  unsealText(serverSecrets, TOTP_SEAL, sealed);
