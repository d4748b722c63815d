import { deriveKey } from 'altcha-lib/algorithms/web/pbkdf2';
import { handler } from 'altcha-lib/workers/shared';

/*
 * One of the captcha's solvers: altcha-lib's worker loop over the browser's PBKDF2 (WebCrypto). A
 * file of our own origin, which the content security policy allows (no inline or blob worker).
 */
handler({ deriveKey });
