import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobActor } from '../actor';
import { auditActorOf, insertAuditEntry } from '../modules/audit/repo';
import { recordLoginAttempt } from '../modules/auth/repo';
import { hashToken } from '../modules/auth/tokens';
import { insertPayment, insertSubscription } from '../modules/billing/repo';
import { insertCloudInstance } from '../modules/instances/repo';
import { findInvitationByKey } from '../modules/invitations/keys';
import { recordDownload } from '../modules/downloads/repo';
import { insertCustomization } from '../modules/licences/repo';
import { insertNotification } from '../modules/notifications/repo';
import { insertUser } from '../modules/users/repo';
import { putChallenge } from '../modules/two-factor/repo';
import {
  addMembership,
  createCustomer,
  createInvitation,
  createLicence,
  createProduct,
  createUser,
  createVersion,
} from '../test/factories';
import { createTestApp, type TestApp } from '../test/harness';
import { checksOf, ENUM_COLUMNS, type TableName } from './constraints';
import { type DB, isUniqueViolation, nowIso } from '.';
import { createWebhookDelivery, createWebhookEndpoint } from '../test/webhooks';
import {
  insertSession as insertTestSession,
  insertSubscription as insertTestSubscription,
} from '../integrations/payments/builtin-store';

let t: TestApp;
let db: DB;

/** One valid row in every table that has a CHECK constraint, written the way the application writes it. */
async function oneRowEach() {
  const user = await createUser(db);
  const customer = await createCustomer(db, { selfService: true });
  await addMembership(db, user.id, customer.id, 'businessOwner');
  await createInvitation(db, customer.id, { inviterId: user.id });
  const product = await createProduct(db);
  const version = await createVersion(db, product.key, { platforms: ['linux'] });
  const licence = await createLicence(db, customer.id, product.key);
  await recordDownload(db, {
    licenceId: licence.id,
    versionId: version.id,
    artifactId: null,
    userId: user.id,
    ip: null,
    platform: 'linux',
  });
  const base = { customerId: customer.id };
  await insertCustomization(db, {
    ...base,
    productKey: product.key,
    versionType: 'stable',
    customConfig: '{}',
    enabled: 1,
  });
  await insertCloudInstance(db, {
    ...base,
    name: 'i',
    tier: 'Trial',
    status: 'creating',
    url: null,
    deleteDataDelayInDays: null,
  });
  await insertSubscription(db, {
    ...base,
    provider: 'builtin',
    providerCustomerId: null,
    providerSubscriptionId: null,
    status: 'trial',
    currentPeriodEnd: null,
    graceUntil: null,
  });
  await insertPayment(db, { ...base, providerSessionId: 'cs_1', amountCents: 100, currency: 'EUR', status: 'open' });
  await insertNotification(db, { userId: user.id, messageKey: 'notification.newVersion' });
  await recordLoginAttempt(db, { email: user.email, ip: '192.0.2.1', success: false });
  await insertAuditEntry(db, { customerId: null, by: auditActorOf(jobActor('probe')), action: 'createProduct' });
  await putChallenge(db, {
    id: 'probe',
    kind: 'signIn',
    userId: user.id,
    loginEmail: user.email,
    challenge: null,
    expiresAt: nowIso(),
  });
  const now = nowIso();
  await db
    .insertInto('licenceExpiryNotices')
    .values({ licenceId: licence.id, endDate: '2030-01-01', kind: 'expired', createdAt: now })
    .execute();
  // the outbox is written by the mailer; a bare row is enough to test the table itself
  await db
    .insertInto('mailOutbox')
    .values({
      toAddress: user.email,
      subject: 's',
      textBody: 't',
      htmlBody: null,
      template: 'x',
      status: 'pending',
      attempts: 0,
      lastError: null,
      createdAt: now,
      sentAt: null,
    })
    .execute();
  const webhook = await createWebhookEndpoint(db, t.config.sessionSecret);
  await createWebhookDelivery(db, webhook.id);
  const test = { ...base, providerCustomerId: 'cus_test_probe' };
  await insertTestSubscription(db, {
    ...test,
    id: 'sub_test_probe',
    status: 'active',
    cancelAtPeriodEnd: 0,
    currentPeriodStart: now,
    currentPeriodEnd: now,
  });
  await insertTestSession(db, {
    ...test,
    id: 'cs_test_probe',
    kind: 'checkout',
    status: 'open',
    subscriptionId: null,
    amountCents: 4900,
    currency: 'eur',
    returnUrl: 'http://portal.test/',
    cancelUrl: null,
  });
}

beforeAll(async () => {
  t = await createTestApp();
  db = t.app.ctx.db;
  await oneRowEach();
});
afterAll(async () => t?.close());

const CHECK_VIOLATION = ['23514', 'SQLITE_CONSTRAINT_CHECK'];
const checkViolation = (error: unknown) => CHECK_VIOLATION.includes((error as { code?: string }).code ?? '');

/** Sets the column of every row of the table, as the database sees it (no type from schema.ts stands in the way). */
const setColumn = (table: TableName, column: string, value: unknown) =>
  db
    .updateTable(table as 'users')
    .set({ [column]: value } as never)
    .execute();

/** The names of the CHECK constraints the database holds, read from its catalogue. */
async function checkConstraintNames(): Promise<string[]> {
  if (t.database.dialect === 'postgres') {
    const { rows } = await sql<{ name: string }>`
      select conname as name from pg_constraint
      where contype = 'c' and connamespace = 'public'::regnamespace`.execute(db.withoutPlugins());
    return rows.map((r) => r.name).sort();
  }
  const { rows } = await sql<{ sql: string }>`select sql from sqlite_master where type = 'table'`.execute(
    db.withoutPlugins(),
  );
  return rows.flatMap((r) => [...(r.sql ?? '').matchAll(/constraint "(\w+)" check/gi)].map((m) => m[1])).sort();
}

const tables = Object.keys(ENUM_COLUMNS) as TableName[];
const constrained = tables.flatMap((table) => checksOf(table).map((check) => ({ table, check })));

describe('CHECK constraints', () => {
  it('are all in the database under their names, and no others', async () => {
    const expected = constrained.map(({ check: [name] }) => name);
    // SQLite's job queue, a table of the job store rather than of `Database` (021_jobs)
    if (t.database.dialect === 'sqlite') expected.push('jobs_state_check');
    expected.sort();
    expect(expected).toContain('users_type_check');
    expect(expected).toContain('memberships_notify_email_error_check');
    expect(await checkConstraintNames()).toEqual(expected);
  });

  it.each(
    constrained.map(({ table, check: [, column, values] }) => [`${table}.${column}`, table, column, values] as const),
  )('%s accepts each of its values and refuses any other', async (_name, table, column, values) => {
    const [before] = await db
      .selectFrom(table as 'users')
      .select(column as 'id')
      .execute();
    expect(before, `a ${table} row to change`).toBeDefined();
    for (const value of values) await setColumn(table, column, value);

    const bad = typeof values[0] === 'number' ? [2, -1] : ['not-a-value', String(values[0]).toUpperCase(), ''];
    for (const value of bad) {
      const error = await setColumn(table, column, value).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error, `${table}.${column} = ${JSON.stringify(value)}`).not.toBeNull();
      expect(checkViolation(error), String(error)).toBe(true);
    }
    await setColumn(table, column, (before as Record<string, unknown>)[column]);
  });

  it('refuses a row inserted with a value outside its list', async () => {
    const error = await insertUser(db, {
      email: 'typo@example.com',
      fullName: 'Typo',
      type: 'superuser' as never,
      preferredLocale: 'en',
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(checkViolation(error)).toBe(true);
  });
});

describe('unique e-mail addresses', () => {
  it('refuses a second account whose address differs only in case', async () => {
    await createUser(db, { email: 'Dana.Case@Example.com' });
    const error = await createUser(db, { email: 'dana.case@example.COM' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isUniqueViolation(error)).toBe(true);
    const rows = await db.selectFrom('users').select('email').where('email', 'like', '%ase@%').execute();
    expect(rows.map((r) => r.email.toLowerCase())).toEqual(['dana.case@example.com']);
  });
});

describe('invitations', () => {
  it('stores the hash of the key, never the key, and finds the invitation by its key', async () => {
    const customer = await createCustomer(db);
    const invitation = await createInvitation(db, customer.id);
    const row = await db
      .selectFrom('invitations')
      .selectAll()
      .where('id', '=', invitation.id)
      .executeTakeFirstOrThrow();
    expect(row.keyHash).toBe(hashToken(invitation.key));
    expect(Object.values(row)).not.toContain(invitation.key);
    expect((await findInvitationByKey(db, invitation.key))?.id).toBe(invitation.id);
    expect(await findInvitationByKey(db, `${invitation.key}x`)).toBeUndefined();
  });

  it('holds at most one pending invitation per customer and address, whatever its case', async () => {
    const customer = await createCustomer(db);
    const other = await createCustomer(db);
    const first = await createInvitation(db, customer.id, { email: 'Pat.Invitee@example.com' });

    const second = await createInvitation(db, customer.id, { email: 'pat.invitee@EXAMPLE.com' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isUniqueViolation(second)).toBe(true);

    // the same address may be invited by another customer
    await createInvitation(db, other.id, { email: 'pat.invitee@example.com' });
    // and again by the first once the pending one is no longer pending
    await db.updateTable('invitations').set({ state: 'cancelled' }).where('id', '=', first.id).execute();
    await createInvitation(db, customer.id, { email: 'pat.invitee@example.com' });
    await createInvitation(db, customer.id, { email: 'pat.invitee@example.com' }).then(
      () => expect.unreachable('a second pending invitation was stored'),
      (e: unknown) => expect(isUniqueViolation(e)).toBe(true),
    );
  });
});
