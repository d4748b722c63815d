import crypto from 'node:crypto';
import { createChallenge, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { z } from 'zod';
import { CAPTCHA_ALGORITHM, type CaptchaChallenge } from '../../../common/api/auth';
import type { DB } from '../../db';
import type { Captcha } from './index';
import { spendCaptcha } from './store';

/**
 * Self-hosted proof-of-work captcha in the ALTCHA format, made and checked by altcha-lib. The server
 * picks a secret counter and publishes the prefix of the key PBKDF2 derives from it, signed; the
 * browser derives keys for counters 0, 1, 2… until one matches. Checking needs no state but the list
 * of used challenge signatures, so any app node can check an answer another node issued, and an
 * answer works once.
 */
const CAPTCHA_VALIDITY_MS = 5 * 60 * 1000;

const hex = (max: number) =>
  z
    .string()
    .regex(/^[0-9a-f]+$/)
    .max(max);

// The widget sends base64(JSON.stringify({ challenge: { parameters, signature }, solution })).
const Payload = z.object({
  challenge: z.object({
    parameters: z
      .object({
        algorithm: z.literal(CAPTCHA_ALGORITHM),
        nonce: hex(64),
        salt: hex(64),
        cost: z.number().int().positive(),
        keyLength: z.number().int().positive().max(64),
        keyPrefix: hex(128),
        keySignature: hex(128),
        expiresAt: z.number().int().positive(),
      })
      .strict(),
    signature: hex(128),
  }),
  solution: z.object({
    counter: z.number().int().min(0).max(0xffffffff),
    derivedKey: hex(128),
    time: z.number().optional(),
  }),
});
type Payload = z.infer<typeof Payload>;

export interface BuiltinCaptcha extends Captcha {
  challenge(): Promise<CaptchaChallenge>;
}

/** Keys used only for captchas, so a signature here can never stand for anything else. */
const derivedSecret = (secret: string, label: string) =>
  crypto.createHmac('sha256', secret).update(label).digest('hex');

function decode(response: string): Payload | null {
  try {
    const parsed = Payload.safeParse(JSON.parse(Buffer.from(response, 'base64').toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

interface BuiltinCaptchaOptions {
  db: DB;
  secret: string;
  /** PBKDF2 iterations for each counter the browser tries */
  cost: number;
  /** the secret counter lies between half of this and this: how many keys the browser derives */
  maxNumber: number;
}

export function createBuiltinCaptcha({ db, secret, cost, maxNumber }: BuiltinCaptchaOptions): BuiltinCaptcha {
  const hmacSignatureSecret = derivedSecret(secret, 'captcha-signature-v2');
  const hmacKeySignatureSecret = derivedSecret(secret, 'captcha-key-signature-v2');

  return {
    provider: 'builtin',

    async challenge() {
      // A counter from the upper half, so no challenge is cheap to solve; the key signature lets the
      // check compare one HMAC instead of deriving the key again.
      const counter = crypto.randomInt(Math.ceil(maxNumber / 2), maxNumber + 1);
      const challenge = await createChallenge({
        algorithm: CAPTCHA_ALGORITHM,
        cost,
        counter,
        deriveKey,
        expiresAt: new Date(Date.now() + CAPTCHA_VALIDITY_MS),
        hmacSignatureSecret,
        hmacKeySignatureSecret,
      });
      return challenge as CaptchaChallenge;
    },

    async verify(response) {
      if (!response) return false;
      const payload = decode(response);
      if (!payload) return false;
      try {
        const result = await verifySolution({
          challenge: payload.challenge,
          solution: payload.solution,
          deriveKey,
          hmacSignatureSecret,
          hmacKeySignatureSecret,
        });
        if (!result.verified) return false;
      } catch {
        // altcha-lib throws on some malformed values; a bad answer is a refusal, never a 500.
        return false;
      }

      // The primary key makes the first use win, on every node sharing the database.
      return spendCaptcha(
        db,
        payload.challenge.signature,
        new Date(payload.challenge.parameters.expiresAt * 1000).toISOString(),
      );
    },
  };
}
