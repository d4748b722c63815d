import type { CaptchaChallenge } from '../../../common/api/auth';

/** How many hashes to try before letting the browser paint and handle input again. */
export const YIELD_EVERY = 1000;

export type Digest = (data: Uint8Array) => Promise<ArrayBuffer>;

const subtleDigest: Digest = (data) => globalThis.crypto.subtle.digest('SHA-256', data as BufferSource);

const encoder = new TextEncoder();

function toHex(buffer: ArrayBuffer): string {
  let hex = '';
  for (const byte of new Uint8Array(buffer)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

export async function sha256Hex(text: string, digest: Digest = subtleDigest): Promise<string> {
  return toHex(await digest(encoder.encode(text)));
}

export interface SolveOptions {
  signal?: AbortSignal;
  /** Fraction of the search space explored so far, between 0 and 1. */
  onProgress?: (fraction: number) => void;
  digest?: Digest;
  /** Lets the UI breathe between batches; a macrotask by default. */
  pause?: () => Promise<void>;
}

const macrotask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Finds n in 0..maxNumber with hex(SHA-256(salt + n)) === challenge; null when there is none.
 * Hashes a batch at a time (the digests run concurrently), then yields so the page stays responsive.
 */
export async function solveChallenge(
  challenge: Pick<CaptchaChallenge, 'challenge' | 'salt' | 'maxNumber'>,
  { signal, onProgress, digest = subtleDigest, pause = macrotask }: SolveOptions = {},
): Promise<number | null> {
  const target = challenge.challenge.toLowerCase();
  for (let start = 0; start <= challenge.maxNumber; start += YIELD_EVERY) {
    if (start > 0) {
      onProgress?.(start / Math.max(1, challenge.maxNumber));
      await pause();
    }
    if (signal?.aborted) throw new DOMException('Captcha solving aborted', 'AbortError');
    const end = Math.min(challenge.maxNumber, start + YIELD_EVERY - 1);
    const batch: Promise<string>[] = [];
    for (let n = start; n <= end; n++) batch.push(sha256Hex(`${challenge.salt}${n}`, digest));
    const found = (await Promise.all(batch)).indexOf(target);
    if (found !== -1) {
      onProgress?.(1);
      return start + found;
    }
  }
  return null;
}

/** base64 of the UTF-8 bytes, which btoa alone cannot take when the text is not Latin-1. */
export function base64Utf8(text: string): string {
  let binary = '';
  for (const byte of encoder.encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The string the server expects as `recaptchaResponse` for the built-in captcha. */
export function captchaResponse(challenge: CaptchaChallenge, number: number): string {
  const { algorithm, salt, signature } = challenge;
  return base64Utf8(JSON.stringify({ algorithm, challenge: challenge.challenge, number, salt, signature }));
}
