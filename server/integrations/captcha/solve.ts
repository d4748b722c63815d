import crypto from 'node:crypto';
import type { CaptchaChallenge } from '../../../common/api/auth';

/**
 * Finds the secret number of a self-hosted challenge and returns the answer a browser would send
 * (base64 JSON). For API tests and end-to-end journeys; the web client has its own solver.
 */
export function solveChallenge(challenge: CaptchaChallenge): string {
  for (let number = 0; number <= challenge.maxNumber; number++) {
    const hash = crypto
      .createHash('sha256')
      .update(challenge.salt + number)
      .digest('hex');
    if (hash === challenge.challenge) {
      const { algorithm, salt, signature } = challenge;
      return Buffer.from(
        JSON.stringify({ algorithm, challenge: challenge.challenge, number, salt, signature }),
      ).toString('base64');
    }
  }
  throw new Error('captcha challenge has no solution up to maxNumber');
}
