import type { Captcha } from './index';

const VERIFY_URL = 'https://www.google.com/recaptcha/api/siteverify';

/** reCAPTCHA, used when its keys are configured. Google keeps track of replays itself. */
export function createRecaptcha(secretKey: string): Captcha {
  return {
    provider: 'recaptcha',
    async verify(response, ip) {
      if (!response) return false;
      try {
        const answer = await fetch(VERIFY_URL, {
          method: 'POST',
          body: new URLSearchParams({ secret: secretKey, response, remoteip: ip }),
          signal: AbortSignal.timeout(5000),
        });
        if (!answer.ok) return false;
        const body = (await answer.json()) as { success?: unknown };
        return body.success === true;
      } catch {
        // An unreachable verifier must not let requests through.
        return false;
      }
    },
  };
}
