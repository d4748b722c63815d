/**
 * The OpenAPI document (served at /api/docs/json, browsable at /api/docs), generated from the
 * routes' zod schemas by @fastify/swagger and fastify-type-provider-zod (docs/decisions/058). What
 * the schemas cannot say is added here, from what the routes declare anyway:
 *
 * - every operation's description ends with who may call it, written from its access rule
 *   (plugins/access.ts), and its `security` follows the same rule;
 * - the tags are declared once, with a description each (`API_TAGS`);
 * - answers a handler writes itself (a file, a redirect) and a body no schema reads (an upload's
 *   bytes) come from the route's `config.document`, which only the document reads;
 * - two paths that differ only by a parameter's name (`/api/invitations/:key` and `/:id`) read as
 *   one template, through `config.document.renameParams`.
 *
 * Only /api routes are described: the pages, the development mailbox and /metrics are not part of the API.
 * `npm test` lints the document with Spectral (`.spectral.yaml`, scripts/api-document.ts) and
 * compiles a client generated from it (server/openapi-client.test.ts).
 */
import { STATUS_CODES } from 'node:http';
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { RouteOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { CUSTOMER_CAPABILITIES, GLOBAL_CAPABILITIES } from '../common/permissions';
import { SESSION_COOKIE } from '../common/constants';
import type { Config } from './config';
import type { Access } from './plugins/access';
import { documentIdempotencyKey } from './plugins/idempotency';

/** An answer the handler writes itself, which no response schema describes. */
interface DocumentedResponse {
  description: string;
  /** the media type of a body of bytes (a file); none for an answer without a body (a redirect) */
  bytes?: string;
  headers?: Record<string, { description: string; schema: Record<string, unknown> }>;
}

/** What the OpenAPI document says of a route beyond its schemas; read by nothing else. */
interface RouteDocument {
  /**
   * Path parameters named otherwise in the document, so that two routes whose paths differ only by a
   * parameter's name (one by key, one by id) share one template there, as OpenAPI requires. The route
   * keeps its own name and validation.
   */
  renameParams?: Record<string, { as: string; description: string }>;
  /** A body of bytes that the handler reads as a stream (no schema validates it). */
  requestBody?: { description: string; mediaType: string };
  /** Answers by status; merged with the schema's answer of the same status (`bytes` beside JSON). */
  responses?: Record<number, DocumentedResponse>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    document?: RouteDocument;
  }
}

/** The tags the routes use, in the order the reference page lists them. */
export const API_TAGS = [
  { name: 'system', description: 'Health of the node and the public settings the web client starts with.' },
  {
    name: 'auth',
    description:
      'Signing in and out (the session is the `portal_session` cookie), the signed-in profile, password resets, the captcha and the hand-over to the support site.',
  },
  {
    name: 'two-factor',
    description:
      'Two-factor sign-in: the second step of a sign-in (the `portal_pending_sign_in` cookie), passkeys without a password, and your own passkeys, authenticator app and recovery codes.',
  },
  {
    name: 'users',
    description: "Staff and client users, managed by administrators. A user's type decides their global role.",
  },
  {
    name: 'search',
    description: "The staff's search box: customers, people, licences, products and versions from one text.",
  },
  {
    name: 'customers',
    description: 'Customers (accounts): the list, the customer page, its details and its account executive.',
  },
  {
    name: 'signup',
    description:
      'Self-service sign-up for a trial: a visitor signs up, then confirms by the mailed link into an account, a customer in trial and its project manager.',
  },
  {
    name: 'invitations',
    description:
      'Invitations of people to a customer: sent, listed, resent and cancelled by its team, then accepted by key by a new or an existing user.',
  },
  { name: 'members', description: "A customer's members and their status." },
  {
    name: 'cloud instances',
    description:
      "A customer's cloud instances, archived and restored by staff, and the orchestrator's signed callbacks (docs/instances.md).",
  },
  {
    name: 'notifications',
    description:
      "The signed-in user's own notifications (the notification centre): listed newest first, and marked read.",
  },
  { name: 'notification settings', description: 'Which notifications a member receives for each customer.' },
  {
    name: 'recent actions',
    description: "A customer's audit trail: every change to its data, listed or exported as CSV.",
  },
  {
    name: 'licences',
    description: "Customers' licences of products: given, renewed, listed, and their download secrets.",
  },
  {
    name: 'customizations',
    description: "A customer's configuration of a product, checked against the product's schema.",
  },
  {
    name: 'catalogue',
    description:
      "Products, their versions and the versions' artifacts (uploaded by product managers or by a release pipeline with a product API token), and the products' API tokens.",
  },
  {
    name: 'downloads',
    description:
      "Downloads of artifacts: by a signed-in member of a customer, or by a licence's secret URL for scripts. Range, ETag and redirects to object storage.",
  },
  { name: 'licence-files', description: 'Licence files signed by the portal, and the public keys that verify them.' },
  { name: 'analytics', description: 'Download analytics across customers, products and versions.' },
  {
    name: 'background work',
    description:
      "The job engine's work, for administrators: counts per kind and state, and the failed jobs, queued again or discarded.",
  },
  { name: 'legal', description: 'The legal documents (terms, privacy) in the reader’s language.' },
  {
    name: 'webhooks',
    description:
      'Endpoints that receive signed events (HMAC-SHA256, `Portal-Signature`), and their deliveries with retries over about 3 days. Administrators only.',
  },
  {
    name: 'billing',
    description:
      "Self-service subscriptions paid by card: the checkout, the provider's pages, the payment provider's signed events, and the built-in test checkout used without Stripe keys (docs/billing.md).",
  },
];

const list = (roles: readonly string[]) => roles.map((role) => `\`${role}\``).join(', ');

/** Who may call a route, in words, from its access rule. */
export function describeAccess(rule: Access): string {
  switch (rule.kind) {
    case 'public':
      return 'Access: anyone; no session needed.';
    case 'visitor':
      return 'Access: visitors without a session; 403 (`signed_in`) with one.';
    case 'signedIn':
      return 'Access: any signed-in user (401 without a session).';
    case 'capability':
      return `Access: signed-in users whose type holds \`${rule.capability}\` (${list(GLOBAL_CAPABILITIES[rule.capability])}); 401 without a session, 403 otherwise.`;
    case 'capabilityOrProductToken':
      return `Access: signed-in users whose type holds \`${rule.capability}\` (${list(GLOBAL_CAPABILITIES[rule.capability])}), or \`Authorization: Bearer <token>\` with an API token of the product the path names (401 for an unknown or revoked token, 403 for another product's).`;
    case 'metricsToken':
      return 'Access: `Authorization: Bearer <METRICS_TOKEN>` (401 without it or with another; 404 while none is configured).';
    case 'customer': {
      const roles = `signed-in users whose role in the customer holds \`${rule.capability}\` (${list(CUSTOMER_CAPABILITIES[rule.capability])}); 401 without a session, 404 for a customer where the caller holds no role, 403 for a role without the capability.`;
      if ('optional' in rule.locate) {
        return `Access: with \`${rule.locate.from.slice('query.'.length)}\`, ${roles} Without it, any signed-in user, the answer scoped to what they may see.`;
      }
      return `Access: ${roles}`;
    }
  }
}

function securityOf(rule: Access | undefined): Array<Record<string, string[]>> {
  if (!rule || rule.kind === 'public' || rule.kind === 'visitor') return [];
  if (rule.kind === 'capabilityOrProductToken') return [{ session: [] }, { productToken: [] }];
  return [{ session: [] }];
}

type Schema = Record<string, unknown>;

function renamed(url: string, params: Schema | undefined, names: NonNullable<RouteDocument['renameParams']>) {
  let path = url;
  for (const [from, to] of Object.entries(names)) path = path.replace(new RegExp(`:${from}(?=/|$)`), `:${to.as}`);
  if (!params) return { url: path, params };
  const properties = { ...(params.properties as Record<string, Schema>) };
  let required = params.required as string[] | undefined;
  for (const [from, to] of Object.entries(names)) {
    if (!(from in properties)) continue;
    properties[to.as] = { ...properties[from], description: to.description };
    delete properties[from];
    required = required?.map((name) => (name === from ? to.as : name));
  }
  return { url: path, params: { ...params, properties, ...(required ? { required } : {}) } };
}

function withDocumentedResponses(responses: Schema | undefined, documented: Record<number, DocumentedResponse>) {
  const merged: Schema = { ...responses };
  for (const [status, answer] of Object.entries(documented)) {
    const entry: Schema = { description: answer.description };
    if (answer.headers) {
      entry.headers = Object.fromEntries(
        Object.entries(answer.headers).map(([name, header]) => [
          name,
          { ...header.schema, description: header.description },
        ]),
      );
    }
    const json = merged[status] as Schema | undefined;
    if (answer.bytes) {
      entry.content = {
        ...(json ? { 'application/json': { schema: json } } : {}),
        [answer.bytes]: { schema: { type: 'string', format: 'binary' } },
      };
    } else if (json) {
      entry.content = { 'application/json': { schema: json } };
    } else {
      entry.type = 'null';
    }
    merged[status] = entry;
  }
  return merged;
}

/** An answer that says nothing of itself reads as its status (`Not Found`), not "Default Response". */
function withStatusDescriptions(responses: Record<string, Schema>) {
  return Object.fromEntries(
    Object.entries(responses).map(([status, answer]) => [
      status,
      answer.description || answer['x-response-description']
        ? answer
        : { ...answer, 'x-response-description': STATUS_CODES[status] ?? status },
    ]),
  );
}

type TransformArgs = Parameters<typeof jsonSchemaTransform>[0] & { route: RouteOptions };

/** The route's schemas as JSON Schema (zod's transform), then what the document adds to them. */
export function transformRoute(args: TransformArgs): { schema: Schema; url: string } {
  const { route } = args;
  if (!args.url.startsWith('/api/')) return { schema: { hide: true }, url: args.url };
  const transformed = documentIdempotencyKey(jsonSchemaTransform(args) as { schema: Schema; url: string }, route);
  if (transformed.schema.hide) return transformed;
  const rule = route.config?.access as Access | undefined;
  const document = route.config?.document;
  const schema: Schema = { ...transformed.schema };
  let url = transformed.url;

  const own = typeof schema.description === 'string' ? `${schema.description}\n\n` : '';
  if (rule) schema.description = own + describeAccess(rule);
  schema.security = securityOf(rule);

  if (document?.renameParams) {
    const result = renamed(url, schema.params as Schema | undefined, document.renameParams);
    url = result.url;
    schema.params = result.params;
  }
  if (document?.requestBody) {
    schema.body = { type: 'string', format: 'binary', description: document.requestBody.description };
    schema.consumes = [document.requestBody.mediaType];
  }
  if (document?.responses) {
    schema.response = withDocumentedResponses(schema.response as Schema | undefined, document.responses);
  }
  if (schema.response) schema.response = withStatusDescriptions(schema.response as Record<string, Schema>);
  return { schema, url };
}

/** The options of @fastify/swagger: the document's head and the transform above. */
export function openApiOptions(config: Config): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Portal API',
        version: '1.0.0',
        description:
          'The customer and licence portal: customers, licences, versions, downloads and teams. Every error answers `{ error: { code, message, details? } }`. docs/api.md tells how to generate a typed client from this document.',
        contact: { name: 'Portal support', email: config.contactEmail },
      },
      servers: [{ url: config.baseUrl, description: 'This portal' }],
      tags: API_TAGS,
      components: {
        securitySchemes: {
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: SESSION_COOKIE,
            description: 'The session cookie that POST /api/auth/login sets.',
          },
          productToken: {
            type: 'http',
            scheme: 'bearer',
            description:
              "An API token of one product (POST /api/products/{key}/tokens): uploads that product's artifacts, nothing else.",
          },
        },
      },
    },
    transform: (args) => transformRoute(args as TransformArgs),
  };
}
