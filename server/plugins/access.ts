import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { IdParam, MAX_ID } from '../../common/api/common';
import { type CustomerCapability, canGlobally, canInCustomer, type GlobalCapability } from '../../common/permissions';
import { deriveRole, globalRole, MEMBER_ROLES } from '../../common/roles';
import type { AppContext } from '../context';
import type { DB } from '../db';
import { ERROR_CODES } from '../../common/api/errors';
import { forbidden, HttpError, notFound, unauthenticated } from '../http-error';
import { invalidField, parseInput } from '../validation';
import { touchToken } from '../modules/artifacts/repo';
import { bearerToken, findToken } from '../modules/artifacts/tokens';
import { customersOfMember, findCustomerWithMembership } from '../modules/customers/repo';
import type { ProductTokenRef, SessionUser } from '../actor';
import type { CustomerAccess } from '../policy';

/**
 * Who may call a route. Every route under /api declares one in `config.access`; the app refuses to
 * start when one is missing, and server/authorization.test.ts checks each against the matrix.
 * - public: anyone, signed in or not
 * - visitor: a caller without a session (signing up, spec 2's unauthenticated-only pages); a
 *   signed-in caller gets 403 `signed_in`
 * - signedIn: any signed-in user
 * - capability: a user whose type holds the global capability (common/permissions.ts)
 * - customer: a user whose role in the route's customer holds the customer capability
 * - capabilityOrProductToken: as capability, or `Authorization: Bearer` with an API token of the
 *   product the route names (the artifact upload of a release pipeline, docs/decisions/036)
 * - metricsToken: `Authorization: Bearer` with the configured METRICS_TOKEN, whatever the session
 *   (`GET /metrics`, for a Prometheus server; docs/decisions/064); 404 while none is configured
 *
 * A customer route says how its customer is found. When the path or the query names it:
 *
 *     access.customer('viewTeam', { from: 'params.id' })
 *
 * When the route names another entity, a loader resolves it to its customer (null when it does not
 * exist, which answers 404 like an unknown customer):
 *
 *     access.customer('manageLicences', {
 *       load: ({ db }, request) => customerOfLicence(db, idFrom(request, 'params.id')),
 *     })
 *
 * (the loader reads through the area's repository, like any query: decision 059).
 *
 * When only the body names it (`POST /api/invitations` and its `targetCustomer`):
 *
 *     access.customer('viewTeam', { from: 'body.targetCustomer' })
 *
 * The 401 is still decided before the body is read; the customer is decided once the body is
 * parsed, before the route's schema validates it.
 *
 * When the customer is optional (`GET /api/invitations` lists one customer's invitations, or those
 * of every customer where the caller may see the team), the rule is "that customer when the query
 * names it, else any signed-in user"; the route reads `customerAccessIfGiven(request)` and scopes
 * the answer to the caller itself:
 *
 *     access.customerIfGiven('viewTeam', 'query.customerId')
 *
 * When the body may leave the customer out because the caller's scope says it
 * (`POST /api/customizations/validate`, decision 094), the rule is "that customer when the body
 * names it, else the one the caller's scope gives": a user whose type holds the capability in every
 * customer (admin, product manager) needs none, and the route reads `customerAccessOrEvery(request)`
 * as null; anyone else gets the one customer where their membership's role holds the capability,
 * checked as if the body had named it; where there is none, 403; where there are several, 400 on
 * the field (say which):
 *
 *     access.customerOrDerived('manageLicences', 'body.customerId')
 *
 * The plugin then loads the customer with the caller's membership and answers 404 (the same body
 * whether the customer exists or not) to a caller with no role there, 403 to a role without the
 * capability; otherwise the route reads `customerAccessOf(request)` and hands it to its service.
 */
export type Access =
  | { kind: 'public' }
  | { kind: 'visitor' }
  | { kind: 'signedIn' }
  | { kind: 'capability'; capability: GlobalCapability }
  | { kind: 'customer'; capability: CustomerCapability; locate: CustomerLocator }
  | { kind: 'capabilityOrProductToken'; capability: GlobalCapability; product: ProductLoader }
  | { kind: 'metricsToken' };

/**
 * The product a route's path names (through the version it names, say); null when that does not
 * exist, which answers 404.
 */
type ProductLoader = (ctx: AppContext, request: FastifyRequest) => Promise<string | null>;

/** Where a request's raw input names something: a path parameter or a query parameter. */
type InputRef = `params.${string}` | `query.${string}`;

/** A field of the parsed JSON body (read in preValidation: the body is not parsed yet in onRequest). */
type BodyRef = `body.${string}`;

/** The id of the route's customer, or null when the entity the route names does not exist. */
type CustomerLoader = (ctx: AppContext, request: FastifyRequest) => Promise<number | null>;

type CustomerLocator =
  { from: InputRef; optional?: true } | { from: BodyRef; derived?: true } | { load: CustomerLoader };

export const access = {
  public: { kind: 'public' } as Access,
  visitor: { kind: 'visitor' } as Access,
  signedIn: { kind: 'signedIn' } as Access,
  can: (capability: GlobalCapability): Access => ({ kind: 'capability', capability }),
  customer: (capability: CustomerCapability, locate: CustomerLocator): Access => ({
    kind: 'customer',
    capability,
    locate,
  }),
  /**
   * A signed-in user holding the global capability, or a request with `Authorization: Bearer` and an
   * API token of the product the route names (docs/decisions/036). Only routes that declare this
   * read the header: a product token opens nothing else.
   */
  capabilityOrProductToken: (capability: GlobalCapability, product: ProductLoader): Access => ({
    kind: 'capabilityOrProductToken',
    capability,
    product,
  }),
  /**
   * `Authorization: Bearer <METRICS_TOKEN>` and nothing else: a session opens nothing here, and the
   * token opens nothing but this (docs/decisions/064).
   */
  metricsToken: { kind: 'metricsToken' } as Access,
  customerIfGiven: (capability: CustomerCapability, from: `query.${string}`): Access => ({
    kind: 'customer',
    capability,
    locate: { from, optional: true },
  }),
  /** The customer the body names, or, left out, the one the caller's scope gives (decision 094). */
  customerOrDerived: (capability: CustomerCapability, from: BodyRef): Access => ({
    kind: 'customer',
    capability,
    locate: { from, derived: true },
  }),
};

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    customerAccess: CustomerAccess | null;
    /** the product token that opened a `capabilityOrProductToken` route; null otherwise */
    productToken: ProductTokenRef | null;
  }
}

const CUSTOMER_NOT_FOUND = 'Customer not found';

const DIGITS = /^\d{1,16}$/;

/**
 * An id named by the raw request, read before the route's schema has run (access is decided before
 * the body is parsed): the same rule as the schemas' ids, 400 otherwise.
 */
export function idFrom(request: FastifyRequest, ref: InputRef): number {
  const [source, name] = ref.split('.', 2) as ['params' | 'query', string];
  const input = (source === 'params' ? request.params : request.query) as Record<string, unknown> | undefined;
  const value = input?.[name];
  // the common case without the schema's machinery: digits, in range (the schema's own rule)
  if (typeof value === 'string' && DIGITS.test(value)) {
    const id = Number(value);
    if (id >= 1 && id <= MAX_ID) return id;
  }
  const parsed = parseInput(IdParam.shape.id, value, [name]);
  if ('error' in parsed) throw parsed.error;
  return parsed.value;
}

/**
 * The role `user` holds in the customer, with the customer and the membership; null when the
 * customer does not exist or the user holds no role in it (no membership, a disabled membership,
 * a disabled account). The customer rules of this plugin are its only callers.
 */
export async function resolveCustomerAccess(
  db: DB,
  user: Pick<SessionUser, 'id' | 'type' | 'status'>,
  customerId: number,
): Promise<CustomerAccess | null> {
  if (user.status !== 'enabled') return null;
  const found = await findCustomerWithMembership(db, customerId, user.id);
  if (!found) return null;
  const role = deriveRole(user.type, found.membership?.role);
  return role ? { customer: found.customer, role, membership: found.membership } : null;
}

/** The customer access the route's rule established; only customer routes have one. */
export function customerAccessOf(request: FastifyRequest): CustomerAccess {
  if (!request.customerAccess) throw new Error(`${request.routeOptions.url} declares no customer access rule`);
  return request.customerAccess;
}

/**
 * The customer access of a route whose customer is optional (`access.customerIfGiven`): null when
 * the request names no customer.
 */
export function customerAccessIfGiven(request: FastifyRequest): CustomerAccess | null {
  const rule = request.routeOptions.config.access;
  if (rule?.kind !== 'customer' || !('optional' in rule.locate)) {
    throw new Error(`${request.routeOptions.url} declares no optional customer access rule`);
  }
  return request.customerAccess;
}

/**
 * The customer access of a route whose customer the caller's scope may give
 * (`access.customerOrDerived`): null when the body names none and the caller holds the capability in
 * every customer (their type's role: admin, product manager), so that no customer is needed.
 */
export function customerAccessOrEvery(request: FastifyRequest): CustomerAccess | null {
  const rule = request.routeOptions.config.access;
  if (rule?.kind !== 'customer' || !('derived' in rule.locate)) {
    throw new Error(`${request.routeOptions.url} declares no derived customer access rule`);
  }
  return request.customerAccess;
}

/** Whether the raw request leaves out a value: the parameter is absent. */
function absent(request: FastifyRequest, ref: InputRef): boolean {
  const [source, name] = ref.split('.', 2) as ['params' | 'query', string];
  const input = (source === 'params' ? request.params : request.query) as Record<string, unknown> | undefined;
  return input?.[name] === undefined;
}

/** The value of a field of the parsed JSON body; undefined when the body is no object or lacks it. */
function bodyField(request: FastifyRequest, ref: BodyRef): unknown {
  const body = request.body as Record<string, unknown> | null | undefined;
  return body && typeof body === 'object' ? body[ref.slice('body.'.length)] : undefined;
}

/** A customer id in the parsed JSON body: a whole number by the schemas' id rule, 400 otherwise. */
function bodyIdFrom(request: FastifyRequest, ref: BodyRef): number {
  const name = ref.slice('body.'.length);
  const value = bodyField(request, ref);
  const parsed = parseInput(IdParam.shape.id, typeof value === 'number' ? String(value) : value, [name]);
  if ('error' in parsed) throw parsed.error;
  return parsed.value;
}

const fromBody = (locate: CustomerLocator): locate is { from: BodyRef } =>
  'from' in locate && locate.from.startsWith('body.');

async function enforceAccess(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const rule = request.routeOptions.config.access;
  if (!rule || rule.kind === 'public') return;
  if (rule.kind === 'visitor') {
    if (request.user) throw new HttpError(403, ERROR_CODES.signedIn, 'This is for visitors: sign out first');
    return;
  }
  if (rule.kind === 'metricsToken') return enforceMetricsToken(request);
  if (rule.kind === 'capabilityOrProductToken') {
    const token = bearerToken(request.headers.authorization);
    if (token !== null) return enforceProductToken(request, rule.product, token);
  }
  const user = request.user;
  if (!user) throw unauthenticated();
  if (
    (rule.kind === 'capability' || rule.kind === 'capabilityOrProductToken') &&
    !canGlobally(globalRole(user.type), rule.capability)
  ) {
    throw forbidden();
  }
  if (rule.kind === 'customer' && !fromBody(rule.locate)) {
    if ('optional' in rule.locate && absent(request, rule.locate.from)) return;
    const { ctx } = request.server;
    const customerId =
      'from' in rule.locate ? idFrom(request, rule.locate.from as InputRef) : await rule.locate.load(ctx, request);
    await enforceCustomer(request, rule.capability, customerId);
  }
}

/**
 * A product token opens the route of its own product: an unknown or revoked token is a 401, a token
 * of another product a 403 (it is a real credential, for something else), an unknown target a 404.
 */
async function enforceProductToken(request: FastifyRequest, product: ProductLoader, token: string): Promise<void> {
  const { ctx } = request.server;
  const found = await findToken(ctx.db, token);
  if (!found) {
    throw new HttpError(401, ERROR_CODES.unauthenticated, 'Invalid or revoked API token', undefined, {
      'WWW-Authenticate': 'Bearer',
    });
  }
  const productKey = await product(ctx, request);
  if (productKey === null) throw notFound();
  if (productKey !== found.productKey) throw forbidden('This API token belongs to another product');
  await touchToken(ctx.db, found.id);
  request.productToken = found;
}

const sha256 = (text: string) => crypto.createHash('sha256').update(text, 'utf8').digest();

/**
 * The metrics token: 404 while none is configured (metrics are off, or served on METRICS_BIND only),
 * 401 for a missing or wrong one. Compared in time that does not depend on where they differ.
 */
function enforceMetricsToken(request: FastifyRequest): void {
  const expected = request.server.ctx.config.metrics.token;
  if (expected === null) throw notFound();
  const given = bearerToken(request.headers.authorization);
  if (given === null || !crypto.timingSafeEqual(sha256(given), sha256(expected))) {
    throw new HttpError(401, ERROR_CODES.unauthenticated, 'A valid metrics token is required', undefined, {
      'WWW-Authenticate': 'Bearer',
    });
  }
}

/** The customer part of a rule whose customer only the body names, once the body is parsed. */
async function enforceBodyAccess(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const rule = request.routeOptions.config.access;
  if (rule?.kind !== 'customer' || !fromBody(rule.locate)) return;
  if ('derived' in rule.locate && bodyField(request, rule.locate.from) === undefined) {
    return enforceDerivedCustomer(request, rule.capability, rule.locate.from);
  }
  await enforceCustomer(request, rule.capability, bodyIdFrom(request, rule.locate.from));
}

/** Customers looked up to tell one from several. */
const ONE_OR_SEVERAL = 2;

/**
 * A body that leaves its customer out (`access.customerOrDerived`): a type whose role holds the
 * capability in every customer needs none (no customer access); a type whose role lacks it is
 * refused; anyone else works through memberships, and the one customer where theirs holds the
 * capability is checked as if named (none: 403, several: 400 on the field, say which).
 */
async function enforceDerivedCustomer(request: FastifyRequest, capability: CustomerCapability, ref: BodyRef) {
  const user = request.user;
  if (!user) throw unauthenticated();
  const everywhere = globalRole(user.type);
  if (everywhere) {
    if (!canInCustomer(everywhere, capability)) throw forbidden();
    request.customerAccess = null;
    return;
  }
  const roles = MEMBER_ROLES.filter((role) => canInCustomer(deriveRole(user.type, role), capability));
  const customers = await customersOfMember(request.server.ctx.db, user.id, roles, ONE_OR_SEVERAL);
  if (customers.length === 0) throw forbidden();
  if (customers.length > 1) throw invalidField(ref.slice('body.'.length), 'errors.whichCustomer');
  await enforceCustomer(request, capability, customers[0]);
}

async function enforceCustomer(request: FastifyRequest, capability: CustomerCapability, customerId: number | null) {
  const { ctx } = request.server;
  const user = request.user;
  if (!user) throw unauthenticated();
  const found = customerId === null ? null : await resolveCustomerAccess(ctx.db, user, customerId);
  if (!found) throw notFound(CUSTOMER_NOT_FOUND);
  if (!canInCustomer(found.role, capability)) throw forbidden();
  request.customerAccess = found;
}

/**
 * Applies each route's rule right after the session is read, before the body is parsed or
 * validated: a caller without the right gets 401/403/404 whatever their input, learns nothing of
 * the input rules, and costs no parsing.
 */
async function accessPlugin(app: FastifyInstance) {
  app.decorateRequest('customerAccess', null);
  app.decorateRequest('productToken', null);
  app.addHook('onRequest', enforceAccess);
  app.addHook('preValidation', enforceBodyAccess);
}

export const accessRules = fp(accessPlugin, { name: 'access', dependencies: ['session'] });
