import type { Config } from '../../config';
import type { DB } from '../../db';
import { type BuiltinCaptcha, createBuiltinCaptcha } from './builtin';
import { createRecaptcha } from './recaptcha';

/**
 * A captcha checks that a human (or at least a paying amount of work) stands behind a request.
 * The self-hosted proof of work is the default: no third party, works offline. reCAPTCHA replaces it
 * when its keys are configured.
 */
export interface Captcha {
  readonly provider: 'builtin' | 'recaptcha';
  /** true once for a solved captcha; false for a missing, wrong, expired or replayed answer */
  verify(response: string | undefined, ip: string): Promise<boolean>;
}

export function createCaptcha(deps: { config: Config; db: DB }): Captcha | BuiltinCaptcha {
  const { config, db } = deps;
  if (config.recaptcha) return createRecaptcha(config.recaptcha.secretKey);
  return createBuiltinCaptcha({
    db,
    secret: config.sessionSecret,
    cost: config.captchaCost,
    maxNumber: config.captchaMaxNumber,
  });
}

export function isBuiltinCaptcha(captcha: Captcha): captcha is BuiltinCaptcha {
  return captcha.provider === 'builtin';
}

export { type BuiltinCaptcha, createBuiltinCaptcha } from './builtin';
export { purgeUsedCaptchas } from './store';
