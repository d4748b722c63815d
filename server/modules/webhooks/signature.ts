import crypto from 'node:crypto';

/**
 * The signature of a webhook delivery (docs/webhooks.md), Stripe's scheme: the header
 * `Portal-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`, keyed with
 * the endpoint's whole secret (`whsec_…`) as UTF-8. This file depends on node:crypto alone, so a
 * receiver may copy `verifyWebhookSignature` as it is; the tests check deliveries with it.
 */

/** A receiver refuses a signature older (or further in the future) than this: a replay. */
export const SIGNATURE_TOLERANCE_SECONDS = 5 * 60;

export function webhookSignature(secret: string, timestamp: number, body: string): string {
  const v1 = crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

/**
 * Whether `header` signs `body` (the raw bytes received, before any JSON parsing) with `secret`,
 * within the tolerance of now. Any `v1` of the header may match (more than one is allowed).
 * Receivers also drop an event whose id (`Portal-Event-Id`) they have already handled.
 */
export function verifyWebhookSignature(
  secret: string,
  header: string | undefined,
  body: string,
  options: { now?: number; toleranceSeconds?: number } = {},
): boolean {
  if (!header) return false;
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS;
  let timestamp = Number.NaN;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2);
    if (key === 't' && /^\d{1,12}$/.test(value ?? '')) timestamp = Number(value);
    if (key === 'v1' && /^[0-9a-f]{64}$/.test(value ?? '')) signatures.push(value);
  }
  if (!Number.isFinite(timestamp) || Math.abs(now - timestamp) > tolerance) return false;
  const expected = Buffer.from(
    crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex'),
  );
  return signatures.some((signature) => crypto.timingSafeEqual(Buffer.from(signature), expected));
}
