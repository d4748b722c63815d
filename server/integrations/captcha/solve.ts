import { solveChallenge as solve } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { CaptchaChallenge } from '../../../common/api/auth';

/**
 * Solves a self-hosted challenge and returns the answer the captcha widget sends (base64 JSON,
 * client/components/captcha/ProofOfWork.tsx). For API tests and benchmarks; browsers solve with the widget.
 */
export async function solveChallenge(challenge: CaptchaChallenge): Promise<string> {
  const solution = await solve({ challenge, deriveKey });
  if (!solution) throw new Error('captcha challenge not solved in time');
  const { parameters, signature } = challenge;
  return Buffer.from(JSON.stringify({ challenge: { parameters, signature }, solution })).toString('base64');
}
