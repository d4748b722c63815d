import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP peer that speaks Stripe's wire protocol for the calls the portal makes
 * (server/integrations/payments/stripe.ts): form-encoded requests with bracketed keys, a bearer key,
 * JSON answers in Stripe's object shapes, and Stripe's error shape and statuses. The stripe client is
 * pointed at it with STRIPE_API_URL. Tests play Stripe's side with `complete`, `update` and `failNext`.
 */

const PEER_SECRET_KEY = 'sk_test_peer_0123456789';
export const PEER_PRICE_ID = 'price_peer_monthly';
export const PEER_WEBHOOK_SECRET = 'whsec_peer_0123456789abcdef';
const AMOUNT = 4900;

type Json = Record<string, unknown>;
type Form = { [key: string]: string | Form | Form[] | string[] };

interface PeerRequest {
  method: string;
  path: string;
  params: Form;
  idempotencyKey: string | null;
}

export interface PeerSubscription extends Json {
  id: string;
  object: 'subscription';
  customer: string;
  status: string;
  cancel_at_period_end: boolean;
  created: number;
  items: { object: 'list'; data: Json[] };
}

/** `a[b][0][c]=v` pairs as Stripe's API reads them: nested objects, numeric keys as array slots. */
function parseStripeForm(body: string): Form {
  const root: Form = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> = root;
    path.forEach((part, i) => {
      if (i === path.length - 1) node[part] = value;
      else node = (node[part] ??= /^\d+$/.test(path[i + 1]) ? [] : {}) as Record<string, unknown>;
    });
  }
  return root;
}

/** A form value that should be a plain string, as a string (anything else shows as JSON). */
const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
const id = (prefix: string) => `${prefix}_${crypto.randomBytes(10).toString('hex')}`;
const now = () => Math.floor(Date.now() / 1000);
const MONTH = 30 * 24 * 60 * 60;

class StripeFailure extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly code?: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

const missing = (kind: string, value: string, param = 'id') =>
  new StripeFailure(404, 'invalid_request_error', `No such ${kind}: '${value}'`, 'resource_missing', param);

export class StripePeer {
  readonly requests: PeerRequest[] = [];
  readonly customers = new Map<string, Json>();
  readonly sessions = new Map<string, Json>();
  readonly subscriptions = new Map<string, PeerSubscription>();
  private failures: { path: RegExp; status: number; type: string; message: string }[] = [];
  private server = http.createServer((req, res) => void this.handle(req, res));
  url = '';

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** The environment that points a portal at this peer. */
  env(): Record<string, string> {
    return {
      STRIPE_SECRET_KEY: PEER_SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: PEER_WEBHOOK_SECRET,
      STRIPE_PRICE_ID: PEER_PRICE_ID,
      STRIPE_API_URL: this.url,
    };
  }

  /** The next request whose path matches answers this Stripe error (a card declined is 402). */
  failNext(path: RegExp, status = 402, message = 'Your card was declined.', type = 'card_error') {
    this.failures.push({ path, status, type, message });
  }

  /** Stripe's side of a paid checkout: the session complete, a subscription created for its customer. */
  complete(sessionId: string, status = 'active'): PeerSubscription {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    const subscription = this.createSubscription(String(session.customer), status, {
      customerId: String(session.client_reference_id),
    });
    Object.assign(session, { status: 'complete', payment_status: 'paid', subscription: subscription.id });
    return subscription;
  }

  createSubscription(customer: string, status: string, metadata: Json = {}): PeerSubscription {
    const start = now();
    const subscription: PeerSubscription = {
      id: id('sub'),
      object: 'subscription',
      customer,
      status,
      cancel_at_period_end: false,
      // newer than any other of the customer's, even within one second
      created: start + this.subscriptions.size,
      metadata,
      items: {
        object: 'list',
        data: [
          {
            id: id('si'),
            object: 'subscription_item',
            current_period_start: start,
            current_period_end: start + MONTH,
            price: { id: PEER_PRICE_ID, object: 'price', unit_amount: AMOUNT },
          },
        ],
      },
    };
    this.subscriptions.set(subscription.id, subscription);
    return subscription;
  }

  /** Stripe's side of a later change: a status, a cancellation at the period's end, a new period. */
  update(
    subscriptionId: string,
    changes: { status?: string; cancel_at_period_end?: boolean; current_period_end?: number },
  ): PeerSubscription {
    const subscription = this.subscriptions.get(subscriptionId);
    if (!subscription) throw new Error(`no subscription ${subscriptionId}`);
    if (changes.status) subscription.status = changes.status;
    if (changes.cancel_at_period_end !== undefined) subscription.cancel_at_period_end = changes.cancel_at_period_end;
    if (changes.current_period_end) {
      const item = subscription.items.data[0];
      item.current_period_start = item.current_period_end;
      item.current_period_end = changes.current_period_end;
    }
    return subscription;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', this.url);
    const method = req.method ?? 'GET';
    const params =
      method === 'GET' ? parseStripeForm(url.search.slice(1)) : parseStripeForm(Buffer.concat(chunks).toString());
    const header = req.headers['idempotency-key'];
    this.requests.push({
      method,
      path: url.pathname,
      params,
      idempotencyKey: typeof header === 'string' ? header : null,
    });
    const answer = (status: number, body: Json) => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
      res.end(JSON.stringify(body));
    };
    try {
      if (req.headers.authorization !== `Bearer ${PEER_SECRET_KEY}`) {
        throw new StripeFailure(401, 'invalid_request_error', 'Invalid API Key provided');
      }
      const failure = this.failures.findIndex((f) => f.path.test(url.pathname));
      if (failure >= 0) {
        const [f] = this.failures.splice(failure, 1);
        throw new StripeFailure(f.status, f.type, f.message);
      }
      answer(200, this.route(method, url.pathname, params));
    } catch (error) {
      if (!(error instanceof StripeFailure)) throw error;
      answer(error.status, {
        error: {
          type: error.type,
          message: error.message,
          ...(error.code ? { code: error.code } : {}),
          ...(error.param ? { param: error.param } : {}),
        },
      });
    }
  }

  private route(method: string, path: string, params: Form): Json {
    const required = (name: string) => {
      const value = params[name];
      if (value === undefined || value === '') {
        throw new StripeFailure(
          400,
          'invalid_request_error',
          `Missing required param: ${name}.`,
          'parameter_missing',
          name,
        );
      }
      return value;
    };
    let match: RegExpMatchArray | null;
    if (method === 'POST' && path === '/v1/customers') {
      const customer = { id: id('cus'), object: 'customer', ...params };
      this.customers.set(customer.id, customer);
      return customer;
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const customer = text(required('customer'));
      if (!this.customers.has(customer)) throw missing('customer', customer, 'customer');
      if (required('mode') !== 'subscription') throw new StripeFailure(400, 'invalid_request_error', 'Unexpected mode');
      const items = required('line_items') as Form[];
      if (items[0]?.price !== PEER_PRICE_ID) throw missing('price', text(items[0]?.price), 'line_items[0][price]');
      required('success_url');
      const session: Json = {
        id: id('cs_test'),
        object: 'checkout.session',
        mode: 'subscription',
        url: `https://checkout.stripe.test/c/pay/${crypto.randomBytes(8).toString('hex')}`,
        status: 'open',
        payment_status: 'unpaid',
        customer,
        subscription: null,
        client_reference_id: params.client_reference_id ?? null,
        metadata: params.metadata ?? {},
        success_url: params.success_url,
        cancel_url: params.cancel_url ?? null,
        amount_total: AMOUNT,
        currency: 'eur',
      };
      this.sessions.set(String(session.id), session);
      return session;
    }
    if (method === 'GET' && (match = path.match(/^\/v1\/checkout\/sessions\/([^/]+)$/))) {
      const session = this.sessions.get(decodeURIComponent(match[1]));
      if (!session) throw missing('checkout.session', match[1]);
      return session;
    }
    if (method === 'GET' && path === '/v1/subscriptions') {
      const customer = text(required('customer'));
      const data = [...this.subscriptions.values()]
        .filter((s) => s.customer === customer)
        .sort((a, b) => b.created - a.created)
        .slice(0, Number(params.limit ?? 10));
      return { object: 'list', data, has_more: false, url: '/v1/subscriptions' };
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      const customer = text(required('customer'));
      if (!this.customers.has(customer)) throw missing('customer', customer, 'customer');
      return {
        id: id('bps'),
        object: 'billing_portal.session',
        customer,
        return_url: params.return_url ?? null,
        flow: params.flow_data ?? null,
        url: `https://billing.stripe.test/p/session/${crypto.randomBytes(8).toString('hex')}`,
      };
    }
    throw new StripeFailure(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path}).`);
  }
}
