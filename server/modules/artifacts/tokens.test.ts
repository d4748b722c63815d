import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, signedIn } from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';
import { hashToken } from './tokens';

let t: TestApp;
let manager: string;
let productKey: string;

beforeAll(async () => {
  t = await createTestApp();
  manager = (await signedIn(t.app, 'productManager')).cookie;
  productKey = (await createProduct(t.app.ctx.db)).key;
});
afterAll(async () => t?.close());

const create = (key: string, name: string) =>
  request(t.app, manager, { method: 'POST', url: `/api/products/${key}/tokens`, payload: { name } });

describe('product API tokens', () => {
  it('shows a new token once and keeps only its hash', async () => {
    const response = await create(productKey, 'Release pipeline');
    expect(response.statusCode).toBe(201);
    const created = response.json();
    expect(created.token).toMatch(/^pt_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({ name: 'Release pipeline', lastUsedAt: null });

    const row = await t.app.ctx.db
      .selectFrom('productTokens')
      .selectAll()
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(row.tokenHash).toBe(hashToken(created.token));
    expect(JSON.stringify(row)).not.toContain(created.token);

    const list = await request(t.app, manager, { method: 'GET', url: `/api/products/${productKey}/tokens` });
    expect(list.statusCode).toBe(200);
    const listed = list.json().data.find((token: { id: number }) => token.id === created.id);
    expect(listed).toEqual({
      id: created.id,
      name: 'Release pipeline',
      createdAt: created.createdAt,
      lastUsedAt: null,
    });
    expect(list.body).not.toContain(created.token);
  });

  it("lists a product's tokens only, newest first", async () => {
    const other = (await createProduct(t.app.ctx.db)).key;
    await create(other, 'Other product');
    const first = (await create(productKey, 'First')).json();
    const second = (await create(productKey, 'Second')).json();
    const names = (await request(t.app, manager, { method: 'GET', url: `/api/products/${productKey}/tokens` }))
      .json()
      .data.map((token: { name: string }) => token.name);
    expect(names).not.toContain('Other product');
    expect(names.indexOf(second.name)).toBeLessThan(names.indexOf(first.name));
  });

  it('requires a name', async () => {
    const response = await create(productKey, '  ');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details[0].path).toBe('name');
  });

  it('answers 404 for an unknown product', async () => {
    expect((await create('no-such-product', 'x')).statusCode).toBe(404);
    expect(
      (await request(t.app, manager, { method: 'GET', url: '/api/products/no-such-product/tokens' })).statusCode,
    ).toBe(404);
  });

  it('revokes a token of the product named, and only that one', async () => {
    const other = (await createProduct(t.app.ctx.db)).key;
    const created = (await create(productKey, 'To revoke')).json();
    const wrongProduct = await request(t.app, manager, {
      method: 'DELETE',
      url: `/api/products/${other}/tokens/${created.id}`,
    });
    expect(wrongProduct.statusCode).toBe(404);
    const revoked = await request(t.app, manager, {
      method: 'DELETE',
      url: `/api/products/${productKey}/tokens/${created.id}`,
    });
    expect(revoked.statusCode).toBe(200);
    const row = await t.app.ctx.db
      .selectFrom('productTokens')
      .select('id')
      .where('id', '=', created.id)
      .executeTakeFirst();
    expect(row).toBeUndefined();
    const again = await request(t.app, manager, {
      method: 'DELETE',
      url: `/api/products/${productKey}/tokens/${created.id}`,
    });
    expect(again.statusCode).toBe(404);
  });
});
