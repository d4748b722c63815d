import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemberRole, Role, UserType } from '../common/roles';
import { buildApp } from './app';
import {
  ACTORS,
  type Actor,
  type Expectations,
  type Fixture,
  MATRIX,
  type MatrixRow,
  type Outcome,
} from './authorization.matrix';
import type { Access } from './plugins/access';
import { addMembership, createCustomer, createUser, login, TEST_PASSWORD } from './test/factories';
import { createTestApp, request, type TestApp } from './test/harness';

/**
 * Every API route, called by every kind of actor, must answer as server/authorization.matrix.ts says;
 * a route without a row, or a row without a route, fails the test so the matrix stays complete and true.
 */

/** Fastify answers HEAD for every GET by itself; the GET row covers it. */
const routeKey = (method: string, url: string) => `${method} ${url}`;
const isApiRoute = (url: string) => url.startsWith('/api/') && !url.startsWith('/api/docs');

let t: TestApp;
let app: FastifyInstance;
const routes = new Map<string, Access | undefined>();
const cookies = new Map<Actor, string | null>();
const emails = new Map<Actor, string>();
let fixture: Fixture;

/** How each actor is made: staff roles by type alone; account executives and clients by membership. */
const ACTOR_SETUP: Record<Role, { type: UserType; memberRole?: MemberRole }> = {
  admin: { type: 'admin' },
  accountExecutive: { type: 'accountExecutive', memberRole: 'accountExecutive' },
  productManager: { type: 'productManager' },
  supportEngineer: { type: 'supportEngineer' },
  businessOwner: { type: 'client', memberRole: 'businessOwner' },
  technicalContact: { type: 'client', memberRole: 'technicalContact' },
  endUser: { type: 'client', memberRole: 'endUser' },
};

beforeAll(async () => {
  // limits off: this test signs in far more often per minute than a person would
  t = await createTestApp({ RATE_LIMIT_LOGIN_PER_MINUTE: '0', RATE_LIMIT_PASSWORD_RESET_PER_MINUTE: '0' });
  app = await buildApp(t.config, {
    database: t.database,
    startBackgroundWork: false,
    onRoute: (route: RouteOptions) => {
      if (!isApiRoute(route.url)) return;
      for (const method of [route.method].flat()) {
        if (method !== 'HEAD') routes.set(routeKey(method, route.url), route.config?.access);
      }
    },
  });
  await app.ready();

  const { db } = app.ctx;
  const own = await createCustomer(db, { name: 'Own Customer' });
  const other = await createCustomer(db, { name: 'Other Customer' });
  let counter = 0;
  fixture = {
    ownCustomerId: own.id,
    otherCustomerId: other.id,
    targetUserId: (await createUser(db, { type: 'supportEngineer', fullName: 'Target User' })).id,
    loginUser: { email: (await createUser(db, { type: 'client' })).email, password: TEST_PASSWORD },
    unique: () => `${Date.now().toString(36)}-${counter++}`,
  };

  cookies.set('anonymous', null);
  for (const [role, setup] of Object.entries(ACTOR_SETUP) as [Role, (typeof ACTOR_SETUP)[Role]][]) {
    const user = await createUser(db, { type: setup.type, fullName: `Matrix ${role}` });
    if (setup.memberRole) await addMembership(db, user.id, own.id, setup.memberRole);
    emails.set(role, user.email);
    cookies.set(role, await login(app, user.email));
  }
});

afterAll(async () => {
  await app?.close();
  await t?.close();
});

function matches(outcome: Outcome, status: number): boolean {
  if (outcome === 'allow') return status !== 401 && status !== 403 && status < 500;
  return status === outcome;
}

function scopesOf(row: MatrixRow): { name: string; customerId: number; expect: Expectations }[] {
  if ('ownCustomer' in row.expect) {
    return [
      { name: 'own customer', customerId: fixture.ownCustomerId, expect: row.expect.ownCustomer },
      { name: 'other customer', customerId: fixture.otherCustomerId, expect: row.expect.otherCustomer },
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

  it('gives a concrete URL for every route with parameters', () => {
    const withoutUrl = MATRIX.filter((row) => row.url.includes(':') && !row.call?.(fixture, { customerId: 0 }).url);
    expect(withoutUrl.map((row) => routeKey(row.method, row.url))).toEqual([]);
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
      const mismatches: string[] = [];
      for (const scope of scopesOf(row)) {
        for (const actor of ACTORS) {
          const call = row.call?.(fixture, { customerId: scope.customerId }) ?? {};
          const response = await request(app, cookies.get(actor) ?? null, {
            method: row.method,
            url: call.url ?? row.url,
            ...(call.payload !== undefined ? { payload: call.payload as object } : {}),
          });
          const expected = scope.expect[actor];
          if (!matches(expected, response.statusCode)) {
            const who = scope.name ? `${actor} (${scope.name})` : actor;
            mismatches.push(`${who}: expected ${expected}, got ${response.statusCode} ${response.body.slice(0, 200)}`);
          }
          if (row.endsSession && actor !== 'anonymous') cookies.set(actor, await login(app, emails.get(actor)!));
        }
      }
      expect(mismatches).toEqual([]);
    });
  }
});
