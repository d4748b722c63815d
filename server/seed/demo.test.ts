import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CUSTOMER_KEY_ALPHABET, isValidCustomerKey } from '../../common/customer-key';
import { isNotificationMessageKey, NOTIFICATION_MESSAGES } from '../../common/notifications';
import { checkPassword } from '../../common/password';
import { ROLES } from '../../common/roles';
import { WEBHOOK_EVENTS } from '../../common/webhooks';
import { validateConfig } from '../modules/customizations/schemas';
import { queueWebhookDeliveries } from '../modules/webhooks/deliver';
import { hasDownloadedProduct, latestDownloadAt } from '../modules/downloads/repo';
import { login } from '../test/factories';
import { createTestApp, request, type TestApp } from '../test/harness';
import { DEMO_ACCOUNTS, DEMO_CUSTOMER_NAME, DEMO_CUSTOMIZATIONS, DEMO_PASSWORD, DEMO_TEAM, seedDemoData } from './demo';

let t: TestApp;
let seeded: boolean;

beforeAll(async () => {
  t = await createTestApp();
  seeded = await seedDemoData(t.app.ctx.db, new Date(), t.config.sessionSecret, t.app.ctx.storage);
});
afterAll(async () => t?.close());

const count = async (table: 'users' | 'customers' | 'products' | 'versions' | 'licences' | 'cloudInstances') =>
  Number(
    (
      await t.app.ctx.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('demo data', () => {
  it('loads into an empty database, once', async () => {
    expect(seeded).toBe(true);
    expect(await count('users')).toBe(DEMO_ACCOUNTS.length + DEMO_TEAM.length);
    expect(await count('customers')).toBeGreaterThanOrEqual(4);
    expect(await count('products')).toBeGreaterThanOrEqual(3);
    expect(await count('versions')).toBeGreaterThanOrEqual(6);
    expect(await count('licences')).toBeGreaterThanOrEqual(5);
    expect(await count('cloudInstances')).toBe(1);

    expect(await seedDemoData(t.app.ctx.db)).toBe(false);
    expect(await count('users')).toBe(DEMO_ACCOUNTS.length + DEMO_TEAM.length);
  });

  it('gives every version of a product to download files, stored with their size and sha256', async () => {
    const versions = await t.app.ctx.db
      .selectFrom('versions')
      .innerJoin('products', 'products.key', 'versions.productKey')
      .select(['versions.id', 'versions.productKey', 'versions.semVer', 'products.isSaas'])
      .execute();
    for (const version of versions.filter((v) => !v.isSaas)) {
      const artifacts = await t.app.ctx.db
        .selectFrom('artifacts')
        .selectAll()
        .where('versionId', '=', version.id)
        .execute();
      expect(artifacts.length, `${version.productKey} ${version.semVer}`).toBeGreaterThan(0);
      for (const artifact of artifacts) {
        const chunks: Buffer[] = [];
        for await (const chunk of await t.app.ctx.storage.read(artifact.storageKey)) chunks.push(chunk as Buffer);
        const bytes = Buffer.concat(chunks);
        expect(bytes.length).toBe(Number(artifact.size));
        expect(crypto.createHash('sha256').update(bytes).digest('hex')).toBe(artifact.sha256);
      }
    }
    // the demo's recorded download names the file it was
    const download = await t.app.ctx.db
      .selectFrom('downloads')
      .select('artifactId')
      .where('userId', 'is not', null)
      .executeTakeFirstOrThrow();
    expect(download.artifactId).not.toBeNull();
  });

  it('uses a documented password that follows the password rule', () => {
    expect(checkPassword(DEMO_PASSWORD)).toBeNull();
    expect(DEMO_PASSWORD).toBe('Demo-Password-2024!');
  });

  it('has one account per role, the account executive in two customers, clients in Acme Analytics', async () => {
    const roles = DEMO_ACCOUNTS.map((a) => a.role).sort();
    expect(roles).toEqual([...ROLES].sort());
    const { db } = t.app.ctx;
    const memberships = await db
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.userId')
      .innerJoin('customers', 'customers.id', 'memberships.customerId')
      .select(['users.email', 'memberships.role', 'customers.name'])
      .execute();
    for (const account of DEMO_ACCOUNTS) {
      const mine = memberships.filter((m) => m.email === account.email);
      expect(mine.map((m) => m.name).sort(), account.email).toEqual([...account.customers].sort());
      for (const m of mine) expect(m.role).toBe(account.role);
    }
    expect(DEMO_ACCOUNTS.find((a) => a.role === 'accountExecutive')?.customers).toHaveLength(2);
    for (const role of ['businessOwner', 'technicalContact', 'endUser']) {
      expect(DEMO_ACCOUNTS.find((a) => a.role === role)?.customers).toEqual([DEMO_CUSTOMER_NAME]);
    }
  });

  it('has well-formed customers, versions and licences', async () => {
    const { db } = t.app.ctx;
    const customers = await db.selectFrom('customers').selectAll().execute();
    for (const c of customers) {
      expect(isValidCustomerKey(c.customerKey)).toBe(true);
      expect([...c.customerKey].every((ch) => CUSTOMER_KEY_ALPHABET.includes(ch))).toBe(true);
    }
    const selfService = customers.filter((c) => c.selfService === 1);
    expect(selfService).toHaveLength(1);
    // the payment status is the subscription's: the self-service customer is on trial, the others
    // (no subscription) have none
    const subscriptions = await db.selectFrom('subscriptions').select(['customerId', 'status']).execute();
    expect(subscriptions).toEqual([{ customerId: selfService[0].id, status: 'trial' }]);
    const instance = await db.selectFrom('cloudInstances').selectAll().executeTakeFirstOrThrow();
    expect(instance.customerId).toBe(selfService[0].id);

    const saas = await db.selectFrom('products').select('key').where('isSaas', '=', 1).execute();
    expect(saas).toHaveLength(1);
    const types = new Set(
      (await db.selectFrom('versions').select('type').where('published', '=', 1).execute()).map((v) => v.type),
    );
    for (const type of ['stable', 'beta', 'maintenance']) expect(types.has(type as never)).toBe(true);

    const today = new Date().toISOString().slice(0, 10);
    const in3Months = new Date(Date.now() + 90 * 24 * 3600 * 1000).toISOString().slice(0, 10);
    const licences = await db.selectFrom('licences').selectAll().execute();
    expect(licences.some((l) => l.endDate > in3Months)).toBe(true);
    expect(licences.some((l) => l.endDate >= today && l.endDate <= in3Months)).toBe(true);
    expect(licences.some((l) => l.endDate < today)).toBe(true);
    for (const l of licences) {
      expect(() => JSON.parse(l.data)).not.toThrow();
      expect(l.downloadSecret.length).toBeGreaterThanOrEqual(32);
    }
    expect(new Set(licences.map((l) => l.downloadSecret)).size).toBe(licences.length);

    // the download in the demo log is also in the downloads table, so its licence has a latest download
    const acme = customers.find((c) => c.name === DEMO_CUSTOMER_NAME)!;
    const acmeServer = licences.find((l) => l.customerId === acme.id && l.productKey === 'graph-server')!;
    expect(await latestDownloadAt(db, acmeServer.id)).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(await hasDownloadedProduct(db, acme.id, 'graph-server')).toBe(true);
    expect(await hasDownloadedProduct(db, acme.id, 'graph-toolkit')).toBe(false);
  });

  it('customizes an lke and an ogma product, each valid against its schema, with its licences pointing to it', async () => {
    const { db } = t.app.ctx;
    const rows = await db
      .selectFrom('customizations')
      .innerJoin('products', 'products.key', 'customizations.productKey')
      .select(['customizations.id', 'customerId', 'productKey', 'customConfig', 'products.customizationType'])
      .execute();
    expect(rows).toHaveLength(DEMO_CUSTOMIZATIONS.length);
    expect(new Set(rows.map((r) => r.customizationType))).toEqual(new Set(['lke', 'ogma']));
    for (const row of rows) {
      if (row.customizationType === 'none') throw new Error(`${row.productKey} offers no customization`);
      expect(validateConfig(row.customizationType, JSON.parse(row.customConfig)), row.productKey).toEqual([]);
      const licences = await db
        .selectFrom('licences')
        .select('customizationId')
        .where('customerId', '=', row.customerId)
        .where('productKey', '=', row.productKey)
        .execute();
      expect(licences.length).toBeGreaterThan(0);
      for (const licence of licences) expect(licence.customizationId).toBe(row.id);
    }
    // the account executive reads Acme's customization of the server through the API
    const executive = DEMO_ACCOUNTS.find((a) => a.role === 'accountExecutive')!;
    const cookie = await login(t.app, executive.email, DEMO_PASSWORD);
    const acme = await db
      .selectFrom('customers')
      .select('id')
      .where('name', '=', DEMO_CUSTOMER_NAME)
      .executeTakeFirstOrThrow();
    const list = await request(t.app, cookie, {
      method: 'GET',
      url: `/api/customers/${acme.id}/customizations?productKey=graph-server`,
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toEqual([
      expect.objectContaining({ productKey: 'graph-server', customizationType: 'lke' }),
    ]);
  });

  it('gives demo accounts notifications of every parameter their kind names, linked to what they are about', async () => {
    const acme = await t.app.ctx.db
      .selectFrom('customers')
      .select('id')
      .where('name', '=', DEMO_CUSTOMER_NAME)
      .executeTakeFirstOrThrow();
    const expected = { 'owner@demo.portal': 3, 'ae@demo.portal': 1, 'admin@demo.portal': 2 };
    for (const [email, unread] of Object.entries(expected)) {
      const cookie = await login(t.app, email, DEMO_PASSWORD);
      const response = await request(t.app, cookie, { method: 'GET', url: '/api/notifications' });
      expect(response.statusCode).toBe(200);
      const list = response.json();
      expect(list.unread, email).toBe(unread);
      for (const item of list.data) {
        expect(isNotificationMessageKey(item.messageKey), item.messageKey).toBe(true);
        const names = NOTIFICATION_MESSAGES[item.messageKey as keyof typeof NOTIFICATION_MESSAGES];
        expect(Object.keys(item.params).sort(), `${email} ${item.messageKey}`).toEqual([...names].sort());
        expect(item.link).toBe(`/accounts/${item.params.customerId}`);
      }
      if (email === 'owner@demo.portal')
        expect(list.data.every((i: { link: string | null }) => i.link === `/accounts/${acme.id}`)).toBe(true);
    }
  });

  it('gives every listed demo customer a licence in each state, one per product, and a product left to license', async () => {
    const { db } = t.app.ctx;
    const admin = await login(t.app, 'admin@demo.portal', DEMO_PASSWORD);
    const customers = await db.selectFrom('customers').select(['id', 'name']).orderBy('name').execute();
    const products = await db.selectFrom('products').select('key').execute();
    for (const customer of customers) {
      const response = await request(t.app, admin, {
        method: 'GET',
        url: `/api/customers/${customer.id}/licenses?pageLength=100`,
      });
      expect(response.statusCode).toBe(200);
      const licences: { productKey: string; status: string }[] = response.json().data;
      const statuses = new Set(licences.map((l) => l.status));
      // Initech Security shows the customer list's rule: every licence ended beyond its grace
      const expected = customer.name === 'Initech Security' ? ['invalid'] : ['grace', 'invalid', 'valid', 'warning'];
      expect([...statuses].sort(), customer.name).toEqual(expected);
      expect(new Set(licences.map((l) => l.productKey)).size).toBe(licences.length);
      const licensable = await request(t.app, admin, {
        method: 'GET',
        url: `/api/customers/${customer.id}/licensable-products`,
      });
      expect(licensable.json().data.length, customer.name).toBe(products.length - licences.length);
      expect(licensable.json().data.length, customer.name).toBeGreaterThan(0);
    }
    // the hidden one is hidden from the default list, and shown with all!
    const list = (filter: string) =>
      request(t.app, admin, { method: 'GET', url: `/api/customers?filter=${encodeURIComponent(filter)}` });
    const names = (body: { data: { name: string }[] }) => body.data.map((c) => c.name);
    expect(names((await list('')).json())).not.toContain('Initech Security');
    expect(names((await list('all!')).json())).toContain('Initech Security');
  });

  it('lets every demo account sign in with the shared password', async () => {
    for (const account of DEMO_ACCOUNTS) {
      const cookie = await login(t.app, account.email, DEMO_PASSWORD);
      const me = await request(t.app, cookie, { method: 'GET', url: '/api/auth/me' });
      expect(me.statusCode, account.email).toBe(200);
      expect(me.json()).toMatchObject({ email: account.email, fullName: account.fullName, type: account.type });
    }
  });

  it('gives every account that sees a team members, disabled ones and pending and expired invitations', async () => {
    const { db } = t.app.ctx;
    const customers = await db.selectFrom('customers').select(['id', 'name']).execute();
    for (const account of DEMO_ACCOUNTS.filter((a) =>
      ['businessOwner', 'accountExecutive', 'admin', 'supportEngineer'].includes(a.role),
    )) {
      const cookie = await login(t.app, account.email, DEMO_PASSWORD);
      const names = account.customers.length > 0 ? account.customers : [DEMO_CUSTOMER_NAME];
      for (const name of names) {
        const id = customers.find((c) => c.name === name)!.id;
        const members = (await request(t.app, cookie, { method: 'GET', url: `/api/customers/${id}/members` })).json();
        const statuses = new Set(members.data.map((m: { status: string }) => m.status));
        expect([...statuses].sort(), `${account.email} ${name}`).toEqual(['disabled', 'enabled']);
        const invitations = (
          await request(t.app, cookie, { method: 'GET', url: `/api/invitations?customerId=${id}` })
        ).json();
        const states = new Set(invitations.data.map((i: { status: string }) => i.status));
        expect([...states].sort(), `${account.email} ${name}`).toEqual(['expired', 'pending']);
      }
    }
    // the admin can copy a demo invitation's link
    const admin = await login(t.app, 'admin@demo.portal', DEMO_PASSWORD);
    const acme = customers.find((c) => c.name === DEMO_CUSTOMER_NAME)!.id;
    const list = (await request(t.app, admin, { method: 'GET', url: `/api/invitations?customerId=${acme}` })).json();
    const pending = list.data.find((i: { status: string }) => i.status === 'pending');
    const link = await request(t.app, admin, { method: 'GET', url: `/api/invitations/${pending.id}/link` });
    expect(link.statusCode).toBe(200);
    expect(link.json().invitationLink).toMatch(/\/en\/invitation\/[A-Za-z0-9_-]{43}$/);
  });

  it("seeds its webhook endpoints disabled: the demo portal's events make no delivery to an outside host", async () => {
    const { db } = t.app.ctx;
    const endpoints = await db.selectFrom('webhookEndpoints').select(['url', 'enabled']).execute();
    expect(endpoints.length).toBeGreaterThanOrEqual(1);
    expect(endpoints.filter((e) => e.enabled !== 0)).toEqual([]);
    // every endpoint's history is there to show, and none of it waits to be sent again
    const deliveries = await db.selectFrom('webhookDeliveries').select('status').execute();
    expect(deliveries.length).toBeGreaterThan(0);
    expect(deliveries.filter((d) => d.status === 'pending')).toEqual([]);
    for (const type of WEBHOOK_EVENTS) {
      const queued = await db.transaction().execute((trx) =>
        queueWebhookDeliveries(t.app.ctx, trx, {
          id: crypto.randomUUID(),
          type,
          createdAt: new Date().toISOString(),
          data: {},
        }),
      );
      expect(queued, type).toEqual([]);
    }
  });
});
