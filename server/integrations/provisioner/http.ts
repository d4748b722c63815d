import { postWebhook } from '../../modules/webhooks/post';
import { webhookSignature } from '../../modules/webhooks/signature';
import type { Provisioner } from './types';

/** The header that signs every order the portal sends and every callback it accepts. */
export const ORCHESTRATOR_SIGNATURE_HEADER = 'Portal-Signature';
const ORCHESTRATOR_USER_AGENT = 'Portal-Provisioner/1';

/**
 * The adapter of a real orchestrator (docs/instances.md): each order is `POST {url}/orders` with a
 * JSON body signed like the portal's webhooks (HMAC-SHA256 of `<t>.<body>` under the shared secret),
 * and its id as `Idempotency-Key`, the same at every attempt. A 2xx answer means the orchestrator
 * took the order; anything else (or no answer within the timeout) throws, and the job that sends it
 * retries with backoff. The orchestrator is the operator's own service, often on a private network:
 * private addresses are allowed (link-local ones, where cloud metadata answers, never are).
 */
export function createOrchestratorProvisioner(options: {
  url: string;
  secret: string;
  callbackUrl: string;
  timeoutMs: number;
}): Provisioner {
  return {
    kind: 'orchestrator',
    async send(order) {
      const body = JSON.stringify({ ...order, callbackUrl: options.callbackUrl });
      const timestamp = Math.floor(Date.now() / 1000);
      const result = await postWebhook(
        `${options.url}/orders`,
        body,
        {
          'Content-Type': 'application/json',
          'User-Agent': ORCHESTRATOR_USER_AGENT,
          'Idempotency-Key': order.id,
          [ORCHESTRATOR_SIGNATURE_HEADER]: webhookSignature(options.secret, timestamp, body),
        },
        { timeoutMs: options.timeoutMs, allowPrivate: true },
      );
      if (result.error !== null) throw new Error(`the orchestrator did not take order ${order.id}: ${result.error}`);
      return { simulated: [] };
    },
  };
}
