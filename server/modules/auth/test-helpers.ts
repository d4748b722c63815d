import type { FastifyInstance } from 'fastify';
import { CaptchaChallenge } from '../../../common/api/auth';
import { solveChallenge } from '../../integrations/captcha/solve';
import { request } from '../../test/harness';

/** A freshly solved captcha, as the web client would send it. */
export async function solvedCaptcha(app: FastifyInstance): Promise<string> {
  const response = await request(app, null, { method: 'GET', url: '/api/captcha/challenge' });
  if (response.statusCode !== 200) throw new Error(`challenge: ${response.statusCode} ${response.body}`);
  return solveChallenge(CaptchaChallenge.parse(response.json()));
}

let ipCounter = 0;
/** A distinct client address per test, so per-IP counters of one test do not leak into another. */
export const nextIp = () => `10.0.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;
