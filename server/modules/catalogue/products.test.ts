import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE_ERRORS } from '../../../common/api/catalogue';
import { ERROR_CODES } from '../../../common/api/errors';
import type { UserType } from '../../../common/roles';
import { createProduct, signedIn } from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';
import { PRODUCT_EXISTS, PRODUCT_NOT_FOUND } from './service';

let t: TestApp;
const cookies = {} as Record<UserType, string>;

beforeAll(async () => {
  t = await createTestApp();
  const { db } = t.app.ctx;
  await createProduct(db, { key: 'zeta', name: 'Zeta Server' });
  await createProduct(db, { key: 'alpha', name: 'Alpha Studio', customizationType: 'lke' });
  for (const type of ['admin', 'productManager', 'supportEngineer', 'accountExecutive', 'client'] as const) {
    cookies[type] = (await signedIn(t.app, type)).cookie;
  }
});
afterAll(async () => t?.close());

const call = (method: 'GET' | 'POST' | 'PATCH', cookie: string | null, url: string, payload?: unknown) =>
  request(t.app, cookie, { method, url, ...(payload !== undefined ? { payload: payload as object } : {}) });
const valid = { key: 'graph-db', name: 'Graph DB', description: 'A graph database' };

describe('GET /api/products', () => {
  it('lists every product by name for product managers and admins', async () => {
    for (const cookie of [cookies.admin, cookies.productManager]) {
      const response = await call('GET', cookie, '/api/products');
      expect(response.statusCode).toBe(200);
      const names = response.json().data.map((p: { name: string }) => p.name);
      expect(names.indexOf('Alpha Studio')).toBeLessThan(names.indexOf('Zeta Server'));
      expect(response.json().data.find((p: { key: string }) => p.key === 'alpha')).toEqual({
        key: 'alpha',
        name: 'Alpha Studio',
        description: '',
        customizationType: 'lke',
        isSaas: false,
        // an admin edits the product; a product manager only manages its versions
        can: { edit: cookie === cookies.admin, manageVersions: true },
      });
    }
    for (const type of ['supportEngineer', 'accountExecutive', 'client'] as const) {
      expect((await call('GET', cookies[type], '/api/products')).statusCode).toBe(403);
    }
    expect((await call('GET', null, '/api/products')).statusCode).toBe(401);
  });
});

describe('POST /api/products', () => {
  it('creates a product (customization type none by default) for admins only', async () => {
    expect((await call('POST', cookies.productManager, '/api/products', valid)).statusCode).toBe(403);
    const response = await call('POST', cookies.admin, '/api/products', valid);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      ...valid,
      customizationType: 'none',
      isSaas: false,
      can: { edit: true, manageVersions: true },
    });
    expect((await call('GET', cookies.productManager, '/api/products/graph-db')).json().can).toEqual({
      edit: false,
      manageVersions: true,
    });
    expect((await call('GET', cookies.productManager, '/api/products/graph-db')).json().name).toBe('Graph DB');
  });

  it('refuses a key already taken with 409 product_exists on the key field', async () => {
    const response = await call('POST', cookies.admin, '/api/products', { ...valid, key: 'zeta' });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toMatchObject({
      code: ERROR_CODES.productExists,
      message: PRODUCT_EXISTS,
      details: [{ path: 'key', message: `apiErrors.${ERROR_CODES.productExists}` }],
    });
  });

  it('answers one 201 and one 409 when the same key is created twice at once', async () => {
    const body = { ...valid, key: 'raced' };
    const statuses = (
      await Promise.all([
        call('POST', cookies.admin, '/api/products', body),
        call('POST', cookies.admin, '/api/products', body),
      ])
    ).map((r) => r.statusCode);
    expect(statuses.sort()).toEqual([201, 409]);
  });

  it('requires key, name and description, and a key made for URLs', async () => {
    const problem = async (body: object) => {
      const response = await call('POST', cookies.admin, '/api/products', body);
      expect(response.statusCode).toBe(400);
      return response.json().error.details[0];
    };
    expect(await problem({ ...valid, name: ' ' })).toMatchObject({ path: 'name', message: 'errors.required' });
    expect(await problem({ ...valid, description: undefined })).toMatchObject({ path: 'description' });
    expect(await problem({ ...valid, key: 'not a key' })).toEqual({
      path: 'key',
      message: CATALOGUE_ERRORS.productKey,
    });
    expect(await problem({ ...valid, key: 'k2', customizationType: 'other' })).toMatchObject({
      path: 'customizationType',
    });
  });
});

describe('GET and PATCH /api/products/{key}', () => {
  it('answers 404 for an unknown product', async () => {
    const response = await call('GET', cookies.admin, '/api/products/nothing-here');
    expect(response.statusCode).toBe(404);
    expect(response.json().error.message).toBe(PRODUCT_NOT_FOUND);
    expect((await call('PATCH', cookies.admin, '/api/products/nothing-here', { name: 'X' })).statusCode).toBe(404);
  });

  it('lets admins change the name, description and customization type, never the key', async () => {
    expect((await call('PATCH', cookies.productManager, '/api/products/zeta', { name: 'Z' })).statusCode).toBe(403);
    const response = await call('PATCH', cookies.admin, '/api/products/zeta', {
      name: 'Zeta Server 2',
      description: 'Now described',
      customizationType: 'ogma',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      key: 'zeta',
      name: 'Zeta Server 2',
      description: 'Now described',
      customizationType: 'ogma',
    });
    expect((await call('PATCH', cookies.admin, '/api/products/zeta', { key: 'other' })).statusCode).toBe(400);
    expect((await call('PATCH', cookies.admin, '/api/products/zeta', { name: '' })).statusCode).toBe(400);
  });
});
