import crypto from 'node:crypto';
import { z } from 'zod';
import type { CaptchaChallenge } from '../../../common/api/auth';
import type { DB } from '../../db';
import type { Captcha } from './index';

/**
 * Self-hosted proof-of-work captcha in the ALTCHA format. The server picks a secret number and
 * publishes sha256(salt + number) with an HMAC of it; the browser finds the number by trying them
 * all. Verifying needs no state but the list of used signatures, so any app node can check an
 * answer that another node issued, and an answer works once.
 */
export const CAPTCHA_VALIDITY_MS = 5 * 60 * 1000;
const PURGE_INTERVAL_MS = 10 * 60 * 1000;

const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('hex');

/** A key used only for captchas, so a signature here can never stand for anything else. */
const captchaKey = (secret: string) => crypto.createHmac('sha256', secret).update('captcha-signature-v1').digest();

const Solution = z.object({
  algorithm: z.literal('SHA-256'),
  challenge: z.string().regex(/^[0-9a-f]{64}$/),
  number: z.number().int().min(0),
  salt: z.string().max(200),
  signature: z.string().regex(/^[0-9a-f]{64}$/),
});

export interface BuiltinCaptcha extends Captcha {
  challenge(): CaptchaChallenge;
}

function expiryOf(salt: string): number | null {
  const query = salt.split('?')[1];
  if (!query) return null;
  const expires = Number(new URLSearchParams(query).get('expires'));
  return Number.isSafeInteger(expires) && expires > 0 ? expires * 1000 : null;
}

function decode(response: string): z.infer<typeof Solution> | null {
  try {
    const parsed = Solution.safeParse(JSON.parse(Buffer.from(response, 'base64').toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function createBuiltinCaptcha(deps: { db: DB; secret: string; maxNumber: number }): BuiltinCaptcha {
  const { db, maxNumber } = deps;
  const key = captchaKey(deps.secret);
  const sign = (challenge: string) => crypto.createHmac('sha256', key).update(challenge).digest('hex');
  let lastPurge = 0;

  async function purgeNowAndThen(now: number) {
    if (now - lastPurge < PURGE_INTERVAL_MS) return;
    lastPurge = now;
    await db.deleteFrom('usedCaptchas').where('expiresAt', '<', new Date(now).toISOString()).execute();
  }

  return {
    provider: 'builtin',

    challenge() {
      const expires = Math.floor((Date.now() + CAPTCHA_VALIDITY_MS) / 1000);
      const salt = `${crypto.randomBytes(12).toString('hex')}?expires=${expires}`;
      const number = crypto.randomInt(0, maxNumber + 1);
      const challenge = sha256(salt + number);
      return { algorithm: 'SHA-256', challenge, salt, maxNumber, signature: sign(challenge) };
    },

    async verify(response) {
      if (!response) return false;
      const solution = decode(response);
      if (!solution) return false;
      const expected = Buffer.from(sign(solution.challenge), 'hex');
      if (!crypto.timingSafeEqual(expected, Buffer.from(solution.signature, 'hex'))) return false;
      const expiresAt = expiryOf(solution.salt);
      const now = Date.now();
      if (!expiresAt || expiresAt < now) return false;
      if (sha256(solution.salt + solution.number) !== solution.challenge) return false;

      await purgeNowAndThen(now);
      // The primary key makes the first use win, on every node sharing the database.
      const inserted = await db
        .insertInto('usedCaptchas')
        .values({ signature: solution.signature, expiresAt: new Date(expiresAt).toISOString() })
        .onConflict((oc) => oc.column('signature').doNothing())
        .executeTakeFirst();
      return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
    },
  };
}
