import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueAuditAction } from '../../../common/audit';
import { type Actor, integrationActor, jobActor, systemActor } from '../../actor';
import { createCustomer, signedIn } from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';
import { auditActorOf, insertAuditEntry } from '../audit/repo';

/**
 * The catalogue's changes are audited like every other change (decision 059): who did it (a user or
 * a product API token), what, with no customer, so that no customer's recent actions list them.
 */

let t: TestApp;
let admin: Awaited<ReturnType<typeof signedIn>>;
let manager: Awaited<ReturnType<typeof signedIn>>;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signedIn(t.app, 'admin');
  manager = await signedIn(t.app, 'productManager');
});
afterAll(async () => t?.close());

const entriesOf = (action: CatalogueAuditAction) =>
  t.app.ctx.db.selectFrom('auditLog').selectAll().where('action', '=', action).orderBy('id').execute();
const lastOf = async (action: CatalogueAuditAction) => (await entriesOf(action)).at(-1);
const dataOf = (entry: { data: string } | undefined) => JSON.parse(entry?.data ?? 'null');

const asUser = (user: { id: number; email: string }) => ({
  customerId: null,
  actorKind: 'user',
  actorId: user.id,
  actorEmail: user.email,
  actorName: null,
});

let key = 0;
const productKey = () => `audited-${Date.now().toString(36)}-${key++}`;

async function newProduct(cookie: string) {
  const key = productKey();
  const response = await request(t.app, cookie, {
    method: 'POST',
    url: '/api/products',
    payload: { key, name: 'Audited', description: 'An audited product', customizationType: 'none' },
  });
  expect(response.statusCode).toBe(201);
  return key;
}

async function newVersion(productKey: string, semVer = '1.0.0') {
  const response = await request(t.app, manager.cookie, {
    method: 'POST',
    url: `/api/products/${productKey}/versions`,
    payload: { title: `Release ${semVer}`, type: 'stable', semVer, description: 'First' },
  });
  expect(response.statusCode).toBe(201);
  return response.json().id as number;
}

describe('catalogue changes', () => {
  it('writes createProduct and updateProduct entries naming the admin', async () => {
    const key = await newProduct(admin.cookie);
    expect(await lastOf('createProduct')).toMatchObject(asUser(admin));
    expect(dataOf(await lastOf('createProduct'))).toEqual({ productKey: key, productName: 'Audited' });

    const response = await request(t.app, admin.cookie, {
      method: 'PATCH',
      url: `/api/products/${key}`,
      payload: { name: 'Audited again' },
    });
    expect(response.statusCode).toBe(200);
    expect(await lastOf('updateProduct')).toMatchObject(asUser(admin));
    expect(dataOf(await lastOf('updateProduct'))).toEqual({
      productKey: key,
      productName: 'Audited again',
      changes: { name: 'Audited again' },
    });
  });

  it('writes no entry for a refused change', async () => {
    const key = await newProduct(admin.cookie);
    const before = (await entriesOf('createProduct')).length;
    const taken = await request(t.app, admin.cookie, {
      method: 'POST',
      url: '/api/products',
      payload: { key, name: 'Twice', description: 'Again', customizationType: 'none' },
    });
    expect(taken.statusCode).toBe(409);
    expect(await entriesOf('createProduct')).toHaveLength(before);
  });

  it('writes createVersion, updateVersion and publishVersion entries naming the product manager', async () => {
    const key = await newProduct(admin.cookie);
    const id = await newVersion(key, '2.0.0');
    expect(await lastOf('createVersion')).toMatchObject(asUser(manager));
    expect(dataOf(await lastOf('createVersion'))).toMatchObject({
      productKey: key,
      versionId: id,
      productVersion: '2.0.0',
    });

    const edit = await request(t.app, manager.cookie, {
      method: 'PATCH',
      url: `/api/versions/${id}`,
      payload: { description: 'Better' },
    });
    expect(edit.statusCode).toBe(200);
    expect(await lastOf('updateVersion')).toMatchObject(asUser(manager));
    expect(dataOf(await lastOf('updateVersion'))).toEqual({
      productKey: key,
      versionId: id,
      productVersion: '2.0.0',
      changes: { description: 'Better' },
    });

    const publish = await request(t.app, manager.cookie, {
      method: 'PATCH',
      url: `/api/versions/${id}`,
      payload: { published: true },
    });
    expect(publish.statusCode).toBe(200);
    const published = await lastOf('publishVersion');
    expect(published).toMatchObject(asUser(manager));
    expect(dataOf(published)).toMatchObject({ versionId: id, releaseDate: publish.json().releaseDate });
  });
});

describe('artifacts and product API tokens', () => {
  it('names the token that uploaded, and the user who created, revoked, uploaded or removed', async () => {
    const key = await newProduct(admin.cookie);
    const versionId = await newVersion(key);
    const created = await request(t.app, manager.cookie, {
      method: 'POST',
      url: `/api/products/${key}/tokens`,
      payload: { name: 'Release pipeline' },
    });
    expect(created.statusCode).toBe(201);
    const token = created.json();
    expect(await lastOf('createProductToken')).toMatchObject(asUser(manager));
    expect(dataOf(await lastOf('createProductToken'))).toEqual({
      productKey: key,
      tokenId: token.id,
      tokenName: 'Release pipeline',
    });

    const upload = (headers: Record<string, string>, platform: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/versions/${versionId}/artifacts/${platform}`,
        payload: Buffer.from(`bytes for ${platform}`),
        headers: { 'content-type': 'application/octet-stream', ...headers },
      });
    const byToken = await upload({ authorization: `Bearer ${token.token}` }, 'linux');
    expect(byToken.statusCode).toBe(200);
    expect(await lastOf('uploadArtifact')).toMatchObject({
      customerId: null,
      actorKind: 'token',
      actorId: null,
      actorEmail: null,
      actorName: `#${token.id} Release pipeline`,
    });
    expect(dataOf(await lastOf('uploadArtifact'))).toMatchObject({
      productKey: key,
      versionId,
      productPlatform: 'linux',
      artifactId: byToken.json().id,
      sha256: byToken.json().sha256,
      replaced: false,
    });

    const byUser = await upload({ cookie: manager.cookie }, 'linux');
    expect(byUser.statusCode).toBe(200);
    expect(await lastOf('uploadArtifact')).toMatchObject(asUser(manager));
    expect(dataOf(await lastOf('uploadArtifact'))).toMatchObject({ replaced: true });

    const removed = await request(t.app, manager.cookie, {
      method: 'DELETE',
      url: `/api/versions/${versionId}/artifacts/linux`,
    });
    expect(removed.statusCode).toBe(200);
    expect(await lastOf('deleteArtifact')).toMatchObject(asUser(manager));
    expect(dataOf(await lastOf('deleteArtifact'))).toMatchObject({ versionId, productPlatform: 'linux' });

    const revoked = await request(t.app, manager.cookie, {
      method: 'DELETE',
      url: `/api/products/${key}/tokens/${token.id}`,
    });
    expect(revoked.statusCode).toBe(200);
    expect(await lastOf('revokeProductToken')).toMatchObject(asUser(manager));
    expect(dataOf(await lastOf('revokeProductToken'))).toEqual({
      productKey: key,
      tokenId: token.id,
      tokenName: 'Release pipeline',
    });
  });

  it('writes no entry when an upload is refused', async () => {
    const key = await newProduct(admin.cookie);
    const versionId = await newVersion(key);
    const before = (await entriesOf('uploadArtifact')).length;
    const refused = await t.app.inject({
      method: 'PUT',
      url: `/api/versions/${versionId}/artifacts/linux`,
      payload: Buffer.from('x'),
      headers: { 'content-type': 'application/octet-stream', authorization: 'Bearer pt_unknown' },
    });
    expect(refused.statusCode).toBe(401);
    expect(await entriesOf('uploadArtifact')).toHaveLength(before);
  });
});

describe("a customer's recent actions", () => {
  it('never list the catalogue entries, which belong to no customer', async () => {
    const customer = await createCustomer(t.app.ctx.db);
    await newVersion(await newProduct(admin.cookie));
    expect((await entriesOf('createVersion')).length).toBeGreaterThan(0);
    const logs = await request(t.app, admin.cookie, { method: 'GET', url: `/api/customers/${customer.id}/logs` });
    expect(logs.statusCode).toBe(200);
    expect(logs.json()).toMatchObject({ data: [], total: 0 });
    const unknownFilter = await request(t.app, admin.cookie, {
      method: 'GET',
      url: `/api/customers/${customer.id}/logs?action=createProduct`,
    });
    expect(unknownFilter.statusCode).toBe(400);
  });
});

describe('machine actors', () => {
  it.each<[string, Actor, string]>([
    ['an integration', integrationActor('stripe'), 'stripe'],
    ['a job', jobActor('licences.expiry'), 'licences.expiry'],
    ['the command line', systemActor('cli'), 'cli'],
  ])('records %s by kind and name', async (_what, actor, name) => {
    const { id } = await insertAuditEntry(t.app.ctx.db, {
      customerId: null,
      by: auditActorOf(actor),
      action: 'updateProduct',
    });
    const row = await t.app.ctx.db.selectFrom('auditLog').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ actorKind: actor.kind, actorName: name, actorId: null, actorEmail: null });
  });
});
