import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditAction } from '../../../common/audit';
import type { MemberRole, UserType } from '../../../common/roles';
import { addMembership, createCustomer, createUser, login, signedIn } from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';
import { insertAuditEntry } from './repo';
import { EXPORT_BATCH } from './service';

let t: TestApp;
let app: FastifyInstance;
let acme: { id: number };
let globex: { id: number };
let big: { id: number };
let admin: string;

const BIG_KEY = 'BIGLOG0001';

beforeAll(async () => {
  t = await createTestApp();
  app = t.app;
  acme = await createCustomer(app.ctx.db, { name: 'Acme', customerKey: 'ACME000001' });
  globex = await createCustomer(app.ctx.db, { name: 'Globex', customerKey: 'GLOBEX0001' });
  big = await createCustomer(app.ctx.db, { name: 'Big', customerKey: BIG_KEY });
  admin = (await signedIn(app, 'admin')).cookie;
  const entry = (action: AuditAction, minutes: number, data: Record<string, unknown> = {}) =>
    insertAuditEntry(app.ctx.db, {
      customerId: acme.id,
      by: { kind: 'user', id: null, email: 'tc@acme.example', name: null },
      action,
      data,
      createdAt: new Date(Date.UTC(2026, 0, 1, 12, minutes)).toISOString(),
    });
  await entry('acceptInvitation', 1, { invitationFrom: 'Olivia Owner' });
  await entry('downloadArtifact', 2, {
    productName: 'Graph Server',
    productVersion: '4.1.0',
    productPlatform: 'linux',
    anonymousDownload: false,
  });
  await entry('updateMemberStatus', 3, { memberEmail: '=HYPERLINK("http://evil")', from: 'enabled', to: 'disabled' });
  await entry('downloadArtifact', 4, {
    productName: 'Graph, "Pro"\nEdition',
    productVersion: '5.0.0',
    productPlatform: '@windows',
    anonymousDownload: true,
  });
  await insertAuditEntry(app.ctx.db, {
    customerId: globex.id,
    by: { kind: 'user', id: null, email: 'someone@globex.example', name: null },
    action: 'inviteMember',
    data: {},
  });
  // more than two export batches, many sharing one date, so the keyset's tie-break is exercised
  const rows = Array.from({ length: EXPORT_BATCH * 2 + 37 }, (_, i) => ({
    customerId: big.id,
    actorId: null,
    actorEmail: `user${i}@big.example`,
    action: i % 10 === 0 ? 'downloadArtifact' : 'updateMemberStatus',
    data: JSON.stringify({ n: i }),
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, Math.floor(i / 7))).toISOString(),
  }));
  for (let i = 0; i < rows.length; i += 200)
    await app.ctx.db
      .insertInto('auditLog')
      .values(rows.slice(i, i + 200))
      .execute();
});
afterAll(async () => t?.close());

const logs = (cookie: string | null, id: number | string, query = '') =>
  request(app, cookie, { method: 'GET', url: `/api/customers/${id}/logs${query}` });
const csv = (cookie: string | null, id: number | string, query = '', headers: Record<string, string> = {}) =>
  request(app, cookie, { method: 'GET', url: `/api/customers/${id}/logs.csv${query}`, headers });

async function member(type: UserType, customerId: number, role: MemberRole) {
  const user = await createUser(app.ctx.db, { type });
  await addMembership(app.ctx.db, user.id, customerId, role);
  return login(app, user.email);
}

describe('GET /api/customers/:id/logs and logs.csv', () => {
  it('answers 401 to anonymous callers', async () => {
    expect((await logs(null, acme.id)).statusCode).toBe(401);
    expect((await csv(null, acme.id)).statusCode).toBe(401);
  });

  it('answers 400 to a bad id, page or action, never a 500', async () => {
    for (const query of ['?pageOffset=-1', '?pageLength=0', '?pageLength=101', '?action=dropTables', '?action=']) {
      const response = await logs(admin, acme.id, query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().error.code).toBe('validation_error');
    }
    expect((await logs(admin, 'abc')).statusCode).toBe(400);
    expect((await csv(admin, acme.id, '?action=nope')).statusCode).toBe(400);
    expect((await csv(admin, acme.id, '?action=inviteMember&action=acceptInvitation')).statusCode).toBe(400);
  });

  it('refuses technical contacts and end users (403), and hides the customer from outsiders (404)', async () => {
    for (const role of ['technicalContact', 'endUser'] as const) {
      const cookie = await member('client', acme.id, role);
      expect((await logs(cookie, acme.id)).statusCode, role).toBe(403);
      expect((await csv(cookie, acme.id)).statusCode, role).toBe(403);
    }
    const productManager = (await signedIn(app, 'productManager')).cookie;
    expect((await logs(productManager, acme.id)).statusCode).toBe(403);
    const otherOwner = await member('client', globex.id, 'businessOwner');
    const otherExecutive = await member('accountExecutive', globex.id, 'accountExecutive');
    for (const cookie of [otherOwner, otherExecutive]) {
      expect((await logs(cookie, acme.id)).statusCode).toBe(404);
      expect((await csv(cookie, acme.id)).statusCode).toBe(404);
    }
  });

  it('gives the four roles the page, newest first, with the fields of a log entry', async () => {
    const cookies = [
      admin,
      (await signedIn(app, 'supportEngineer')).cookie,
      await member('client', acme.id, 'businessOwner'),
      await member('accountExecutive', acme.id, 'accountExecutive'),
    ];
    for (const cookie of cookies) {
      const response = await logs(cookie, acme.id, '?pageLength=2');
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body).toMatchObject({ offset: 0, total: 4, totalCapped: false });
      expect(body.data.map((e: { action: string }) => e.action)).toEqual(['downloadArtifact', 'updateMemberStatus']);
      expect(body.data[0]).toEqual({
        id: expect.any(Number),
        actorEmail: 'tc@acme.example',
        actorKind: 'user',
        actorName: null,
        action: 'downloadArtifact',
        date: '2026-01-01T12:04:00.000Z',
        anonymousDownload: true,
        productName: 'Graph, "Pro"\nEdition',
        productVersion: '5.0.0',
        productPlatform: '@windows',
        invitationFrom: null,
        data: expect.objectContaining({ productVersion: '5.0.0' }),
      });
    }
    const last = (await logs(admin, acme.id, '?pageOffset=3&pageLength=2')).json();
    expect(last.data).toHaveLength(1);
    expect(last.data[0]).toMatchObject({ action: 'acceptInvitation', invitationFrom: 'Olivia Owner' });
  });

  it('filters by action, and counts what the filter keeps', async () => {
    const body = (await logs(admin, acme.id, '?action=downloadArtifact')).json();
    expect(body.total).toBe(2);
    expect(body.data.map((e: { productVersion: string }) => e.productVersion)).toEqual(['5.0.0', '4.1.0']);
    expect((await logs(admin, acme.id, '?action=createCustomer')).json()).toMatchObject({ data: [], total: 0 });
  });
});

/** The rows of a CSV body, for the simple cells of the big log (no quotes inside). */
const lines = (body: string) =>
  body
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n');

describe('GET /api/customers/:id/logs.csv: the export', () => {
  it('is an attachment named after the customer key and the day, UTF-8 with a BOM', async () => {
    const response = await csv(admin, acme.id);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    const day = new Date().toISOString().slice(0, 10);
    expect(response.headers['content-disposition']).toBe(`attachment; filename="recent-actions-ACME000001-${day}.csv"`);
    expect([...response.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(lines(response.body)[0]).toBe(
      'date,actorEmail,actorKind,actorName,action,productName,productVersion,productPlatform,anonymousDownload,invitationFrom,details',
    );
  });

  it('quotes commas, quotes and line breaks, and neutralises what a spreadsheet would run as a formula', async () => {
    const body = (await csv(admin, acme.id)).body.replace(/^\uFEFF/, '');
    expect(body).toContain(
      '2026-01-01T12:04:00.000Z,tc@acme.example,user,,downloadArtifact,"Graph, ""Pro""\nEdition",5.0.0,\'@windows,true,,\r\n',
    );
    // the formula sits inside the JSON details, which starts with "{": only leading characters matter
    expect(body).toContain('"{""memberEmail"":""=HYPERLINK(\\""http://evil\\"")""');
    expect(body).toContain('2026-01-01T12:01:00.000Z,tc@acme.example,user,,acceptInvitation,,,,,Olivia Owner,\r\n');
    expect(body).not.toContain('someone@globex.example');
  });

  it('names the integration or job that acted where no user did', async () => {
    const customer = await createCustomer(app.ctx.db, { customerKey: 'SYSTEM0001' });
    await insertAuditEntry(app.ctx.db, {
      customerId: customer.id,
      by: { kind: 'integration', id: null, email: null, name: 'stripe' },
      action: 'updatePaymentStatus',
      data: { from: 'processing', to: 'paid' },
      createdAt: new Date(Date.UTC(2026, 0, 2, 9, 0)).toISOString(),
    });
    await insertAuditEntry(app.ctx.db, {
      customerId: customer.id,
      by: { kind: 'job', id: null, email: null, name: 'billing.graceEnd' },
      action: 'updatePaymentStatus',
      data: { from: 'pastDue', to: 'unpaid' },
      createdAt: new Date(Date.UTC(2026, 0, 3, 9, 0)).toISOString(),
    });
    const rows = lines((await csv(admin, customer.id)).body).slice(1);
    expect(rows.map((line) => line.split(',').slice(0, 5))).toEqual([
      ['2026-01-03T09:00:00.000Z', '', 'job', 'billing.graceEnd', 'updatePaymentStatus'],
      ['2026-01-02T09:00:00.000Z', '', 'integration', 'stripe', 'updatePaymentStatus'],
    ]);
  });

  it('puts an apostrophe before a cell starting with = + - @ tab or CR', async () => {
    const customer = await createCustomer(app.ctx.db, { customerKey: 'FORMULA001' });
    for (const [i, start] of ['=', '+', '-', '@', '\t', '\r'].entries()) {
      await insertAuditEntry(app.ctx.db, {
        customerId: customer.id,
        by: { kind: 'user', id: null, email: `${start}cmd|' /C calc'!A0`, name: null },
        action: 'inviteMember',
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
      });
    }
    const body = (await csv(admin, customer.id)).body;
    const emails = lines(body)
      .slice(1)
      .map((line) => line.split(',')[1]);
    expect(emails).toHaveLength(6);
    for (const email of emails) expect(email.replace(/^"/, '')).toMatch(/^'[=+\-@\t\r]cmd/);
  });

  it('streams a log of several batches whole, newest first, each entry once; the filter applies', async () => {
    const all = lines((await csv(admin, big.id)).body).slice(1);
    expect(all).toHaveLength(EXPORT_BATCH * 2 + 37);
    const numbers = all.map((line) => Number(/""n"":(\d+)/.exec(line)?.[1]));
    expect(new Set(numbers).size).toBe(numbers.length);
    const dates = all.map((line) => line.split(',')[0]);
    expect([...dates].sort().reverse()).toEqual(dates);
    const downloads = lines((await csv(admin, big.id, '?action=downloadArtifact')).body).slice(1);
    expect(downloads).toHaveLength(Math.ceil((EXPORT_BATCH * 2 + 37) / 10));
    for (const line of downloads) expect(line.split(',')[4]).toBe('downloadArtifact');
  });

  it('arrives whole when the answer is compressed', async () => {
    const plain = await csv(admin, big.id);
    const gzipped = await csv(admin, big.id, '', { 'accept-encoding': 'gzip' });
    expect(gzipped.statusCode).toBe(200);
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzipped.rawPayload).equals(plain.rawPayload)).toBe(true);
  });
});
