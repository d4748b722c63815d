import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type JWTPayload, jwtVerify } from 'jose';

/**
 * A local page standing in for the support desk's JWT sign-on (Zendesk's shape): `POST /access/jwt`
 * takes the form fields `jwt` and `return_to`, verifies the token with the shared secret (HS256,
 * iat within three minutes), refuses a `jti` it has seen, then opens a session of its own (a cookie)
 * and sends the browser to `return_to` when that is on its origin. Its other pages show who is
 * signed in there.
 */
export class SupportDesk {
  private server: http.Server | null = null;
  /** every token accepted, by its claims */
  readonly accepted: JWTPayload[] = [];
  /** every refusal, with its reason */
  readonly refused: string[] = [];
  private readonly seen = new Set<string>();
  private readonly sessions = new Map<string, string>();

  constructor(private readonly secret: string) {}

  get origin(): string {
    const { port } = this.server!.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** the environment that points a portal at this desk */
  env(): Record<string, string> {
    return { SUPPORT_URL: `${this.origin}/hc`, SUPPORT_JWT_SECRET: this.secret };
  }

  async listen(): Promise<void> {
    this.server = http.createServer((request, response) => {
      void this.handle(request, response).catch((error: Error) => {
        response.writeHead(500).end(error.message);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Posts a hand-off form's fields as the browser would, answering the desk's status and Location. */
  async post(fields: { jwt: string; return_to: string }): Promise<{ status: number; location: string | null }> {
    const response = await fetch(`${this.origin}/access/jwt`, {
      method: 'POST',
      body: new URLSearchParams(fields),
      redirect: 'manual',
    });
    await response.arrayBuffer();
    return { status: response.status, location: response.headers.get('location') };
  }

  private async handle(request: http.IncomingMessage, response: http.ServerResponse) {
    const url = new URL(request.url ?? '/', this.origin);
    if (request.method === 'POST' && url.pathname === '/access/jwt') {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const verdict = await this.verify(form.get('jwt') ?? '');
      if (typeof verdict === 'string') {
        this.refused.push(verdict);
        response.writeHead(401, { 'content-type': 'text/plain' }).end(`Refused: ${verdict}`);
        return;
      }
      this.accepted.push(verdict);
      const session = crypto.randomBytes(12).toString('hex');
      this.sessions.set(session, String(verdict.email));
      const returnTo = form.get('return_to') ?? '';
      const target = returnTo.startsWith(`${this.origin}/`) ? returnTo : `${this.origin}/hc`;
      response.writeHead(302, { location: target, 'set-cookie': `desk=${session}; Path=/; HttpOnly` }).end();
      return;
    }
    const session = /(?:^|;\s*)desk=([0-9a-f]+)/.exec(request.headers.cookie ?? '')?.[1];
    const email = session ? this.sessions.get(session) : undefined;
    const body = email
      ? `<p data-testid="desk-user">Signed in to the desk as ${email}</p><p data-testid="desk-path">${url.pathname}</p>`
      : '<p data-testid="desk-anonymous">Not signed in to the desk</p>';
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(`<!doctype html><html lang="en"><head><title>Desk</title></head><body><main>${body}</main></body></html>`);
  }

  /** The token's claims, or why it is refused. */
  private async verify(jwt: string): Promise<JWTPayload | string> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(jwt, new TextEncoder().encode(this.secret), { algorithms: ['HS256'] }));
    } catch (error) {
      return `invalid token (${(error as Error).name})`;
    }
    if (!payload.jti) return 'no jti';
    if (!payload.iat || Math.abs(Date.now() / 1000 - payload.iat) > 180) return 'iat too far';
    if (this.seen.has(payload.jti)) return 'replayed jti';
    this.seen.add(payload.jti);
    return payload;
  }
}
