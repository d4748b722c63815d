import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { verifyWebhookSignature, webhookSignature } from '../modules/webhooks/signature';

/**
 * A local orchestrator for the tests of the HTTP provisioner (docs/instances.md): a node:http server
 * that takes the portal's orders at `POST /orders`, checks their signature with the shared secret
 * as a real orchestrator must, and remembers them; `failing` makes it answer 503 that many times
 * first. `callback` plays its side of the contract: a signed `POST /api/instances/callback`.
 */

export const ORCHESTRATOR_SECRET = 'orchestrator-shared-secret-0123456789abcdef';

interface ReceivedOrder {
  path: string;
  idempotencyKey: string | undefined;
  userAgent: string | undefined;
  verified: boolean;
  body: {
    id: string;
    command: string;
    instance: { id: number; name: string; tier: string; customerKey: string };
    callbackUrl: string;
  };
}

export class LocalOrchestrator {
  orders: ReceivedOrder[] = [];
  /** answers 503 to this many orders before taking them */
  failing = 0;
  url = '';
  private server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const header = req.headers['portal-signature'];
      this.orders.push({
        path: `${req.method} ${req.url}`,
        idempotencyKey: req.headers['idempotency-key'] as string | undefined,
        userAgent: req.headers['user-agent'],
        verified: verifyWebhookSignature(ORCHESTRATOR_SECRET, typeof header === 'string' ? header : undefined, raw),
        body: JSON.parse(raw) as ReceivedOrder['body'],
      });
      if (this.failing > 0) {
        this.failing--;
        return res.writeHead(503).end('busy');
      }
      res.writeHead(202, { 'Content-Type': 'application/json' }).end('{"accepted":true}');
    });
  });

  async listen() {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close() {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** The signature header of a callback body, made at `timestamp` (unix seconds; now by default). */
export function signCallback(body: string, options: { secret?: string; timestamp?: number } = {}): string {
  return webhookSignature(
    options.secret ?? ORCHESTRATOR_SECRET,
    options.timestamp ?? Math.floor(Date.now() / 1000),
    body,
  );
}

/** Sends a callback event the way the orchestrator does; `signature` replaces the right one. */
export function callback(
  app: FastifyInstance,
  event: Record<string, unknown>,
  options: { signature?: string | null; secret?: string; timestamp?: number } = {},
) {
  const body = JSON.stringify({ id: crypto.randomUUID(), ...event });
  const signature = options.signature === undefined ? signCallback(body, options) : options.signature;
  return app.inject({
    method: 'POST',
    url: '/api/instances/callback',
    headers: { 'content-type': 'application/json', ...(signature === null ? {} : { 'portal-signature': signature }) },
    payload: body,
  });
}
