import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemberRole, UserType } from '../common/roles';
import { buildApp } from './app';
import {
  ACTORS,
  type Actor,
  type Expectations,
  type Fixture,
  MATRIX,
  MATRIX_METRICS_TOKEN,
  type MatrixRow,
  type Outcome,
} from './authorization.matrix';
import { notFound } from './http-error';
import { issueEmailChangeToken } from './modules/auth/email-change';
import { solvedCaptcha } from './modules/auth/test-helpers';
import { issuePasswordResetToken } from './modules/auth/tokens';
import { findLicence } from './modules/licences/repo';
import { type Access, access } from './plugins/access';
import type { DB } from './db';
import {
  addMembership,
  createCustomer,
  createCustomization,
  createInvitation,
  createLicence,
  createProduct,
  createUser,
  createVersionWithFiles,
  login,
  TEST_PASSWORD,
} from './test/factories';
import { addArtifactRow, createProductToken, createUnpublishedVersion } from './test/artifacts';
import { createSignup } from './test/signups';
import { createWebhookDelivery, createWebhookEndpoint } from './test/webhooks';
import { failedDownloadRecords, failedJobOf } from './test/jobs';
import { makeSelfService, signedEvent, stripeEvent, testCheckoutSession } from './test/billing';
import { oidcEnv, startInteraction } from './test/oidc';
import { createTestApp, request, type TestApp } from './test/harness';
import { SalesforcePeer } from './test/salesforce-peer';
import { createInstance } from './test/instances';
import { latestPasskeyId, passkeyAnswer, pendingSignIn, totpSetupCode } from './test/two-factor';

/** A well-formed credential nobody made, for calls refused before it is looked at. */
const NO_CREDENTIAL = { id: 'none', rawId: 'none', type: 'public-key', response: { clientDataJSON: 'e30' } };

/**
 * Every API route, called by every kind of actor, must answer as server/authorization.matrix.ts says;
 * a route without a row, or a row without a route, fails the test so the matrix stays complete and true.
 */

/** Fastify answers HEAD for every GET by itself; the GET row covers it. */
const routeKey = (method: string, url: string) => `${method} ${url}`;
/** API routes, and routes elsewhere that declare an access rule (/metrics): all have their rows. */
const isCovered = (route: RouteOptions) =>
  (route.url.startsWith('/api/') && !route.url.startsWith('/api/docs')) || route.config?.access !== undefined;

let t: TestApp;
let app: FastifyInstance;
const routes = new Map<string, Access | undefined>();
const cookies = new Map<Actor, string | null>();
const emails = new Map<Actor, string>();
let fixture: Fixture;
let accountExecutiveActorId = 0;
const actorIds = new Map<Actor, number>();
const artifactsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-matrix-artifacts-'));

interface ActorSetup {
  type: UserType;
  /** a membership: of the own customer unless said otherwise */
  membership?: { role: MemberRole; of?: 'third'; status?: 'disabled' };
}

/**
 * How each actor is made: staff roles by type alone; account executives and clients by membership
 * of the own customer; the two outsiders by a membership elsewhere or a disabled one.
 */
const ACTOR_SETUP: Record<Exclude<Actor, 'anonymous'>, ActorSetup> = {
  admin: { type: 'admin' },
  accountExecutive: { type: 'accountExecutive', membership: { role: 'accountExecutive' } },
  productManager: { type: 'productManager' },
  supportEngineer: { type: 'supportEngineer' },
  businessOwner: { type: 'client', membership: { role: 'businessOwner' } },
  technicalContact: { type: 'client', membership: { role: 'technicalContact' } },
  endUser: { type: 'client', membership: { role: 'endUser' } },
  otherAccountExecutive: { type: 'accountExecutive', membership: { role: 'accountExecutive', of: 'third' } },
  disabledMember: { type: 'client', membership: { role: 'businessOwner', status: 'disabled' } },
};

/** the CRM the sync route talks to, so an allowed sync succeeds */
const salesforce = new SalesforcePeer();

beforeAll(async () => {
  await salesforce.listen();
  // limits off: this test signs in far more often per minute than a person would
  t = await createTestApp({
    ...oidcEnv(),
    ...salesforce.env(),
    ARTIFACTS_DIR: artifactsDir,
    RATE_LIMIT_LOGIN_PER_MINUTE: '0',
    RATE_LIMIT_PASSWORD_RESET_PER_MINUTE: '0',
    RATE_LIMIT_INVITATION_PER_MINUTE: '0',
    RATE_LIMIT_SIGNUP_PER_MINUTE: '0',
    METRICS_TOKEN: MATRIX_METRICS_TOKEN,
  });
  app = await buildApp(t.config, {
    database: t.database,
    startBackgroundWork: false,
    onRoute: (route: RouteOptions) => {
      if (!isCovered(route)) return;
      for (const method of [route.method].flat()) {
        if (method !== 'HEAD') routes.set(routeKey(method, route.url), route.config?.access);
      }
    },
  });
  await app.ready();

  const { db } = app.ctx;
  const own = await createCustomer(db, { name: 'Own Customer' });
  const other = await createCustomer(db, { name: 'Other Customer' });
  const third = await createCustomer(db, { name: 'Third Customer' });
  const resetUser = await createUser(db, { type: 'client', fullName: 'Reset User' });
  const secondFactorUser = await createUser(db, { type: 'client', fullName: 'Second Factor User' });
  let counter = 0;
  const candidate = await createUser(db, { type: 'accountExecutive', fullName: 'Candidate Executive' });
  const licensedProduct = await createProduct(db, { name: 'Matrix Product' });
  const tokenProduct = await createProduct(db, { name: 'Token Product' });
  const { token: productToken } = await createProductToken(db, tokenProduct.key);
  const licensedIds = [];
  for (const customer of [own, other]) licensedIds.push((await createLicence(db, customer.id, licensedProduct.key)).id);
  const downloadable = await createVersionWithFiles(app.ctx, licensedProduct.key, {
    files: { linux: { bytes: Buffer.from('matrix artifact') } },
  });
  const ownSecret = (await findLicence(db, licensedIds[0]))!.downloadSecret;
  fixture = {
    ownCustomerId: own.id,
    otherCustomerId: other.id,
    targetUserId: (await createUser(db, { type: 'supportEngineer', fullName: 'Target User' })).id,
    accountExecutiveUserId: async () => {
      // Replacing the own customer's account executive disables the actor's membership: restore it.
      const setStatus = (userId: number, status: 'enabled' | 'disabled') =>
        db
          .updateTable('memberships')
          .set({ status })
          .where('customerId', '=', own.id)
          .where('userId', '=', userId)
          .execute();
      await setStatus(candidate.id, 'disabled');
      await setStatus(accountExecutiveActorId, 'enabled');
      return candidate.id;
    },
    loginUser: { email: (await createUser(db, { type: 'client' })).email, password: TEST_PASSWORD },
    actorPassword: TEST_PASSWORD,
    unique: () => `${Date.now().toString(36)}-${counter++}`,
    resetToken: () => issuePasswordResetToken(db, resetUser.id),
    captcha: () => solvedCaptcha(app),
    emailChangeToken: async () => {
      const mover = await createUser(db, { type: 'client', fullName: 'Mover' });
      return issueEmailChangeToken(db, mover.id, `moved-${mover.id}@example.com`);
    },
    invitationKey: async (email, role) => {
      const customer = await createCustomer(db);
      return (await createInvitation(db, customer.id, { email: email ?? undefined, role })).key;
    },
    signupKey: async () => (await createSignup(db, t.config.sessionSecret)).key,
    membershipIds: await membershipsOf(db, [own.id, other.id]),
    // customer 0 is the URL-shape check's: no row is made for it
    member: async (customerId) => {
      if (customerId === 0) return 0;
      const user = await createUser(db, { type: 'client', fullName: 'Matrix Member' });
      return (await addMembership(db, user.id, customerId, 'technicalContact')).id;
    },
    invitation: async (customerId) =>
      customerId === 0 ? 0 : (await createInvitation(db, customerId, { sealWith: t.config.sessionSecret })).id,
    customizableProduct: async (customerId) => {
      const { key } = await createProduct(db, { customizationType: 'lke' });
      await createLicence(db, customerId, key);
      return key;
    },
    customization: async (customerId) => {
      if (customerId === 0) return 0;
      const { key } = await createProduct(db, { customizationType: 'lke' });
      await createLicence(db, customerId, key);
      return (await createCustomization(db, customerId, key)).id;
    },
    setUpMembershipsOnly: async (actor) => {
      const setup = actor && actor !== 'anonymous' ? ACTOR_SETUP[actor].membership : undefined;
      if (!setup) return;
      await db
        .updateTable('memberships')
        .set({ status: 'disabled' })
        .where('userId', '=', actorIds.get(actor!)!)
        .where('customerId', '!=', setup.of === 'third' ? third.id : own.id)
        .execute();
    },
    product: async () => (await createProduct(db)).key,
    licence: async (customerId) =>
      customerId === 0 ? 0 : (await createLicence(db, customerId, (await createProduct(db)).key)).id,
    licensedProductKey: licensedProduct.key,
    tokenProductKey: tokenProduct.key,
    productToken,
    productTokenId: async () => (await createProductToken(db, tokenProduct.key)).id,
    unpublishedVersion: async (platforms = []) => {
      const versionId = await createUnpublishedVersion(db, tokenProduct.key);
      for (const platform of platforms) await addArtifactRow(db, versionId, platform);
      return versionId;
    },
    downloadableVersionId: downloadable.id,
    ownDownloadSecret: ownSecret,
    webhook: async () => (await createWebhookEndpoint(db, t.config.sessionSecret)).id,
    // customer 0 only asks for a concrete URL: the own customer's instance does
    instance: (customerId, status) => createInstance(db, customerId || own.id, status),
    webhookDelivery: async () => {
      const { id: webhookId } = await createWebhookEndpoint(db, t.config.sessionSecret);
      return { webhookId, deliveryId: await createWebhookDelivery(db, webhookId) };
    },
    failedJob: failedJobOf(app.ctx, await failedDownloadRecords(app.ctx, 3)),
    selfService: async (customerId, known = false) => {
      if (customerId === 0) return;
      await makeSelfService(db, customerId, { providerCustomerId: known ? `cus_test_matrix_${customerId}` : null });
    },
    testCheckout: async (customerId) => (customerId === 0 ? 'cs_test_none' : testCheckoutSession(db, customerId)),
    oidcInteraction: (actor, step) => startInteraction(app, actor ? (cookies.get(actor) ?? null) : null, step),
    secondFactor: () => pendingSignIn(db, secondFactorUser),
    passkey: async (actor) => {
      const cookie = actor ? cookies.get(actor) : null;
      return cookie ? passkeyAnswer(app, cookie) : { name: 'Nobody', credential: NO_CREDENTIAL };
    },
    totpCode: async (actor) => {
      const cookie = actor ? cookies.get(actor) : null;
      return cookie ? totpSetupCode(app, cookie) : '000000';
    },
    passkeyId: async (actor) => (actor && actor !== 'anonymous' ? latestPasskeyId(db, emails.get(actor)!) : 1),
    stripeEvent: async () => {
      // as an object, sent as JSON.stringify writes it: the bytes that were signed
      const event = stripeEvent('invoice.paid', { customer: 'cus_nobody' });
      return { payload: event, headers: signedEvent(event, await app.ctx.payments.webhookSecret()).headers };
    },
  };

  cookies.set('anonymous', null);
  for (const [actor, setup] of Object.entries(ACTOR_SETUP) as [Actor, ActorSetup][]) {
    const user = await createUser(db, { type: setup.type, fullName: `Matrix ${actor}` });
    if (actor === 'accountExecutive') accountExecutiveActorId = user.id;
    actorIds.set(actor, user.id);
    if (setup.membership) {
      const { role, of, status } = setup.membership;
      await addMembership(db, user.id, of === 'third' ? third.id : own.id, role, status);
    }
    emails.set(actor, user.email);
    cookies.set(actor, await login(app, user.email));
  }
});

/** A technicalContact membership of a user nobody signs in as, in each customer. */
async function membershipsOf(db: DB, customerIds: number[]): Promise<Record<number, number>> {
  const ids: Record<number, number> = {};
  for (const customerId of customerIds) {
    const member = await createUser(db, { type: 'client', fullName: 'Matrix Member' });
    ids[customerId] = (await addMembership(db, member.id, customerId, 'technicalContact')).id;
  }
  return ids;
}

afterAll(async () => {
  await app?.close();
  await t?.close();
  await salesforce.close();
  fs.rmSync(artifactsDir, { recursive: true, force: true });
});

/** 'allow' is a success: a 2xx status, or exactly the one the row declares. */
function matches(outcome: Outcome, status: number, row: MatrixRow): boolean {
  if (outcome === 'allow') return row.success !== undefined ? status === row.success : status >= 200 && status < 300;
  return status === outcome;
}

interface Scope {
  name: string;
  customerId: number;
  expect: Expectations;
  call?: MatrixRow['call'];
}

function scopesOf(row: MatrixRow): Scope[] {
  if ('ownCustomer' in row.expect) {
    const withoutCustomer: Scope[] = row.withoutCustomer
      ? [{ name: 'no customer', customerId: 0, expect: row.withoutCustomer.expect, call: row.withoutCustomer.call }]
      : [];
    return [
      { name: 'own customer', customerId: fixture.ownCustomerId, expect: row.expect.ownCustomer },
      { name: 'other customer', customerId: fixture.otherCustomerId, expect: row.expect.otherCustomer },
      ...withoutCustomer,
    ];
  }
  return [{ name: '', customerId: fixture.ownCustomerId, expect: row.expect }];
}

describe('authorisation matrix', () => {
  it('has a row for every API route', () => {
    const rows = new Set(MATRIX.map((row) => routeKey(row.method, row.url)));
    const missing = [...routes.keys()].filter((key) => !rows.has(key));
    expect(missing, 'routes without a row in server/authorization.matrix.ts').toEqual([]);
  });

  it('has no row for a route that does not exist', () => {
    const extra = MATRIX.map((row) => routeKey(row.method, row.url)).filter((key) => !routes.has(key));
    expect(extra, 'rows naming no route').toEqual([]);
  });

  it('has one row per route', () => {
    const keys = MATRIX.map((row) => routeKey(row.method, row.url));
    expect(keys.filter((key, i) => keys.indexOf(key) !== i)).toEqual([]);
  });

  it('gives a concrete URL for every route with parameters', async () => {
    const withoutUrl: string[] = [];
    for (const row of MATRIX.filter((r) => r.url.includes(':'))) {
      if (!(await row.call?.(fixture, { customerId: 0 }))?.url) withoutUrl.push(routeKey(row.method, row.url));
    }
    expect(withoutUrl).toEqual([]);
  });

  it('covers the call without a customer wherever the customer is optional', () => {
    const uncovered = MATRIX.filter((row) => {
      const rule = routes.get(routeKey(row.method, row.url));
      const optional = rule?.kind === 'customer' && ('optional' in rule.locate || 'derived' in rule.locate);
      return optional && !row.withoutCustomer;
    }).map((row) => routeKey(row.method, row.url));
    expect(uncovered).toEqual([]);
  });

  it("lets a product token through its product's upload route only", () => {
    const opened = MATRIX.filter((row) => row.productToken === 'allow').map((row) => routeKey(row.method, row.url));
    expect(opened).toEqual(['PUT /api/versions/:id/artifacts/:platform']);
    const tokenRoutes = [...routes].filter(([, rule]) => rule?.kind === 'capabilityOrProductToken').map(([key]) => key);
    expect(tokenRoutes).toEqual(opened);
  });

  it('lets the metrics token through /metrics only, and only the metrics token', () => {
    const opened = MATRIX.filter((row) => row.metricsToken === 'allow').map((row) => routeKey(row.method, row.url));
    expect(opened).toEqual(['GET /metrics']);
    const tokenRoutes = [...routes].filter(([, rule]) => rule?.kind === 'metricsToken').map(([key]) => key);
    expect(tokenRoutes).toEqual(opened);
    // and no session opens it
    const metrics = MATRIX.find((row) => row.url === '/metrics')!;
    expect(Object.values(metrics.expect).every((outcome) => outcome === 401)).toBe(true);
  });

  it('tells own customer from another customer wherever access depends on the customer', () => {
    const unscoped = MATRIX.filter(
      (row) => routes.get(routeKey(row.method, row.url))?.kind === 'customer' && !('ownCustomer' in row.expect),
    ).map((row) => routeKey(row.method, row.url));
    expect(unscoped).toEqual([]);
  });

  for (const row of MATRIX) {
    it(`${row.method} ${row.url}`, async (context) => {
      if (!routes.has(routeKey(row.method, row.url))) context.skip();
      expect(await mismatchesOf(app, row)).toEqual([]);
    });
  }
});

/** Calls the row's route as every actor, in each of its scopes; what differs from the row. */
async function mismatchesOf(target: FastifyInstance, row: MatrixRow): Promise<string[]> {
  const mismatches: string[] = [];
  for (const scope of scopesOf(row)) {
    for (const actor of ACTORS) {
      const call =
        (await (scope.call ?? row.call)?.(fixture, {
          customerId: scope.customerId,
          actor,
          actorEmail: emails.get(actor) ?? null,
        })) ?? {};
      const response = await request(target, cookies.get(actor) ?? null, {
        method: row.method,
        url: call.url ?? row.url,
        ...(call.payload !== undefined ? { payload: call.payload as object } : {}),
        ...(call.headers ? { headers: call.headers } : {}),
      });
      const expected = scope.expect[actor];
      if (!matches(expected, response.statusCode, row)) {
        const who = scope.name ? `${actor} (${scope.name})` : actor;
        mismatches.push(`${who}: expected ${expected}, got ${response.statusCode} ${response.body.slice(0, 200)}`);
      }
      if (row.endsSession && actor !== 'anonymous') cookies.set(actor, await login(app, emails.get(actor)!));
    }
    // signed out, with an API token of the row's product, then with the METRICS_TOKEN
    const bearers = [
      { name: 'productToken', token: fixture.productToken, expected: row.productToken ?? scope.expect.anonymous },
      { name: 'metricsToken', token: MATRIX_METRICS_TOKEN, expected: row.metricsToken ?? scope.expect.anonymous },
    ];
    for (const { name, token, expected } of bearers) {
      const call =
        (await (scope.call ?? row.call)?.(fixture, { customerId: scope.customerId, actorEmail: null })) ?? {};
      const response = await request(target, null, {
        method: row.method,
        url: call.url ?? row.url,
        ...(call.payload !== undefined ? { payload: call.payload as object } : {}),
        headers: { ...call.headers, authorization: `Bearer ${token}` },
      });
      if (!matches(expected, response.statusCode, row)) {
        const who = scope.name ? `${name} (${scope.name})` : name;
        mismatches.push(`${who}: expected ${expected}, got ${response.statusCode} ${response.body.slice(0, 200)}`);
      }
    }
  }
  return mismatches;
}

describe('the matcher', () => {
  let throwaway: FastifyInstance;
  const allowed = (expect: MatrixRow['expect']) =>
    ('ownCustomer' in expect ? [expect.ownCustomer, expect.otherCustomer] : [expect]).flatMap((e) =>
      Object.values(e).filter((outcome) => outcome === 'allow'),
    ).length;

  beforeAll(async () => {
    // The same portal on the same database (so the actors' sessions hold), with two routes that
    // let every caller through their access rule and then always answer 404.
    throwaway = await buildApp(t.config, { database: t.database, startBackgroundWork: false });
    const missing = async () => {
      throw notFound();
    };
    throwaway.get('/api/always-missing', { config: { access: access.signedIn } }, missing);
    throwaway.get(
      '/api/always-missing/:id',
      { config: { access: access.customer('viewCustomer', { from: 'params.id' }) } },
      missing,
    );
    await throwaway.ready();
  });
  afterAll(async () => throwaway?.close());

  it('fails a route that lets callers through and then always answers 404', async () => {
    const row: MatrixRow = {
      method: 'GET',
      url: '/api/always-missing',
      expect: MATRIX.find((r) => r.url === '/api/auth/me')!.expect,
    };
    const mismatches = await mismatchesOf(throwaway, row);
    expect(mismatches).toHaveLength(allowed(row.expect));
    expect(mismatches.every((line) => line.includes('expected allow, got 404'))).toBe(true);
  });

  it('fails a customer route that always answers 404 to those with a role there', async () => {
    const customer = MATRIX.find((r) => r.url === '/api/customers/:id')!;
    const row: MatrixRow = {
      ...customer,
      url: '/api/always-missing/:id',
      call: (_f, scope) => ({ url: `/api/always-missing/${scope.customerId}` }),
    };
    const mismatches = await mismatchesOf(throwaway, row);
    expect(mismatches).toHaveLength(allowed(row.expect));
    expect(mismatches.every((line) => line.includes('expected allow, got 404'))).toBe(true);
  });
});
