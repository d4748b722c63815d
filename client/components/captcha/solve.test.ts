import { createHash, webcrypto } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import type { CaptchaChallenge } from '../../../common/api/auth';
import { base64Utf8, captchaResponse, sha256Hex, solveChallenge, YIELD_EVERY } from './solve';

const hash = (text: string) => createHash('sha256').update(text).digest('hex');

function makeChallenge(secret: number, maxNumber = 5000): CaptchaChallenge {
  const salt = 'a1b2c3d4e5?expires=1700000000';
  return { algorithm: 'SHA-256', challenge: hash(`${salt}${secret}`), salt, maxNumber, signature: 'sig-123' };
}

describe('captcha solver', () => {
  it('hashes like node:crypto', async () => {
    expect(await sha256Hex('hello')).toBe(hash('hello'));
  });

  it('finds the secret number and reports progress', async () => {
    const challenge = makeChallenge(2345);
    const progress = vi.fn();
    const number = await solveChallenge(challenge, { onProgress: progress, pause: async () => {} });
    expect(number).toBe(2345);
    expect(progress).toHaveBeenCalledWith(YIELD_EVERY / challenge.maxNumber);
    expect(progress).toHaveBeenLastCalledWith(1);
  });

  it('uses an injected digest', async () => {
    const digest = vi.fn((data: Uint8Array) => webcrypto.subtle.digest('SHA-256', data));
    expect(await solveChallenge(makeChallenge(3), { digest })).toBe(3);
    expect(digest).toHaveBeenCalled();
  });

  it('returns null when no number in range matches', async () => {
    const challenge = { ...makeChallenge(10), maxNumber: 5 };
    expect(await solveChallenge(challenge)).toBeNull();
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(solveChallenge(makeChallenge(4000), { signal: controller.signal })).rejects.toThrow('aborted');
  });

  it('builds the base64 JSON response the server verifies', () => {
    const challenge = makeChallenge(42);
    const decoded = JSON.parse(Buffer.from(captchaResponse(challenge, 42), 'base64').toString('utf8'));
    expect(decoded).toEqual({
      algorithm: 'SHA-256',
      challenge: challenge.challenge,
      number: 42,
      salt: challenge.salt,
      signature: 'sig-123',
    });
    expect(Buffer.from(base64Utf8('é✓'), 'base64').toString('utf8')).toBe('é✓');
  });
});
