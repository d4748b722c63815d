import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { MemberRole, UserType } from '../../common/roles';
import { type DB, nowIso } from '../db';
import { hashPassword } from '../modules/auth/password';
import { request, sessionCookieOf } from './harness';

/** Test data builders. Every builder returns the stored row's id and what a test needs to use it. */
export const TEST_PASSWORD = 'Correct-Horse-Battery-9';

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}${crypto.randomBytes(2).toString('hex')}`;

export async function createUser(
  db: DB,
  props: Partial<{
    email: string;
    fullName: string;
    type: UserType;
    status: 'enabled' | 'disabled';
    preferredLocale: 'en' | 'fr';
    password: string | null;
  }> = {},
) {
  const email = props.email ?? `user-${unique()}@example.com`;
  const password = props.password === undefined ? TEST_PASSWORD : props.password;
  const now = nowIso();
  const row = await db
    .insertInto('users')
    .values({
      email,
      fullName: props.fullName ?? 'Test User',
      type: props.type ?? 'admin',
      status: props.status ?? 'enabled',
      preferredLocale: props.preferredLocale ?? 'en',
      passwordHash: password ? await hashPassword(password) : null,
      createdAt: now,
      updatedAt: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, email, password };
}

export async function createCustomer(
  db: DB,
  props: Partial<{ name: string; customerKey: string; selfService: boolean }> = {},
) {
  const now = nowIso();
  const row = await db
    .insertInto('customers')
    .values({
      name: props.name ?? `Customer ${unique()}`,
      customerKey: props.customerKey ?? unique().toUpperCase().padEnd(10, 'X').slice(0, 10),
      selfService: props.selfService ? 1 : 0,
      paymentStatus: null,
      billingEmail: null,
      crmId: null,
      createdAt: now,
      updatedAt: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id };
}

export async function addMembership(db: DB, userId: number, customerId: number, role: MemberRole) {
  const row = await db
    .insertInto('memberships')
    .values({ userId, customerId, role, status: 'enabled', createdAt: nowIso() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id };
}

/** Signs in through the API and returns the session cookie. */
export async function login(app: FastifyInstance, email: string, password = TEST_PASSWORD): Promise<string> {
  const response = await request(app, null, { method: 'POST', url: '/api/auth/login', payload: { email, password } });
  return sessionCookieOf(response);
}

/** A signed-in user of the given type (and membership role for clients/account executives). */
export async function signedIn(app: FastifyInstance, type: UserType, customer?: { id: number; role: MemberRole }) {
  const user = await createUser(app.ctx.db, { type, fullName: `${type} user` });
  if (customer) await addMembership(app.ctx.db, user.id, customer.id, customer.role);
  const cookie = await login(app, user.email);
  return { ...user, cookie };
}
