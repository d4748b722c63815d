import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhookSignature } from '../modules/webhooks/signature';

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** the signature checked with the endpoint's secret at receipt */
  verified: boolean;
  /** when the request arrived (ms since the epoch) */
  at: number;
}

/**
 * A local HTTP receiver of webhook deliveries, on 127.0.0.1. It checks each request's signature with
 * the snippet of docs/webhooks.md and answers by path: /ok 200, /flaky 500 then 200, /fail 500,
 * /hang never, /redirect 302 to /elsewhere, /big a megabyte.
 */
export class Receiver {
  received: Received[] = [];
  secrets = new Map<string, string>();
  flaky = 0;
  private hanging: http.ServerResponse[] = [];
  private server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      const secret = this.secrets.get(path.split('?')[0]) ?? '';
      const verified = verifyWebhookSignature(secret, req.headers['portal-signature'] as string | undefined, body);
      this.received.push({ path, headers: req.headers, body, verified, at: Date.now() });
      if (path === '/ok' || path === '/elsewhere') return res.writeHead(200).end('thanks');
      if (path === '/big') return res.writeHead(200).end('x'.repeat(1024 * 1024));
      if (path === '/flaky') return res.writeHead(this.flaky++ === 0 ? 500 : 204).end();
      if (path === '/redirect') return res.writeHead(302, { Location: `${this.url}/elsewhere` }).end();
      if (path === '/hang') return this.hanging.push(res);
      res.writeHead(500).end('broken');
    });
  });
  url = '';

  async listen() {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close() {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
