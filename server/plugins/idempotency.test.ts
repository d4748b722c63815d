import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { createTestApp, request, type TestApp } from '../test/harness';
import { signedIn } from '../test/factories';
import { IDEMPOTENCY_TTL_MS, purgeIdempotencyKeys } from './idempotency';

/** `Idempotency-Key` on creating routes: the same key and body answer the first result. */
let t: TestApp;
let admin: string;
let otherAdmin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signedIn(t.app, 'admin')).cookie;
  otherAdmin = (await signedIn(t.app, 'admin')).cookie;
});
afterAll(async () => t?.close());

const create = (cookie: string, body: object, key?: string) =>
  request(t.app, cookie, {
    method: 'POST',
    url: '/api/customers',
    payload: body,
    headers: key === undefined ? {} : { 'idempotency-key': key },
  });
const customersNamed = async (name: string) =>
  (await t.app.ctx.db.selectFrom('customers').select('id').where('name', '=', name).execute()).length;

describe('Idempotency-Key', () => {
  it('answers the first result again to the same key and body, creating once', async () => {
    const body = { name: 'Idempotent Once' };
    const first = await create(admin, body, 'key-once-1');
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await create(admin, body, 'key-once-1');
    expect(again.statusCode, again.body).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await customersNamed('Idempotent Once')).toBe(1);
  });

  it('keeps the answer sealed, and forgets one no secret opens', async () => {
    const body = { name: 'Idempotent Sealed' };
    const first = await create(admin, body, 'key-sealed');
    const stored = () =>
      t.app.ctx.db.selectFrom('idempotencyKeys').selectAll().where('key', '=', 'key-sealed').executeTakeFirstOrThrow();
    // an answer may carry a secret (an invitation's link): a copy of the database shows none of it
    expect((await stored()).responseBody).not.toContain('Idempotent Sealed');
    expect((await stored()).responseBody).toMatch(/^v1\./);
    // as under a SESSION_SECRET changed without the previous one: taken as a new request
    await t.app.ctx.db
      .updateTable('idempotencyKeys')
      .set({ responseBody: `${(await stored()).responseBody}x` })
      .where('key', '=', 'key-sealed')
      .execute();
    const again = await create(admin, body, 'key-sealed');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(again.json().id).not.toBe(first.json().id);
  });

  it('makes one customer of two identical creations sent together', async () => {
    const body = { name: 'Idempotent Together' };
    const answers = await Promise.all([create(admin, body, 'key-together'), create(admin, body, 'key-together')]);
    expect(await customersNamed('Idempotent Together')).toBe(1);
    const created = answers.filter((a) => a.statusCode === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const other of answers.filter((a) => a.statusCode !== 201)) {
      expect(other.statusCode).toBe(409);
      expect(other.json().error.code).toBe('idempotency_in_progress');
    }
    // once the first is done, a retry gets its answer
    const retry = await create(admin, body, 'key-together');
    expect(retry.statusCode).toBe(201);
    expect(retry.json().id).toBe(created[0].json().id);
  });

  it('refuses the same key with another body (422), and keeps each caller’s keys apart', async () => {
    expect((await create(admin, { name: 'Idempotent First' }, 'key-reused')).statusCode).toBe(201);
    const reused = await create(admin, { name: 'Idempotent Second' }, 'key-reused');
    expect(reused.statusCode).toBe(422);
    expect(reused.json().error.code).toBe('idempotency_key_reused');
    expect(await customersNamed('Idempotent Second')).toBe(0);

    const someoneElse = await create(otherAdmin, { name: 'Idempotent Second' }, 'key-reused');
    expect(someoneElse.statusCode).toBe(201);
    expect(someoneElse.headers['idempotent-replayed']).toBeUndefined();
  });

  it('replays a refusal (4xx) too', async () => {
    const taken = await create(admin, { name: 'Idempotent Key Owner', customerKey: 'IDEMKEY001' });
    expect(taken.statusCode).toBe(201);
    const body = { name: 'Idempotent Clash', customerKey: 'IDEMKEY001' };
    const refused = await create(admin, body, 'key-refused');
    expect(refused.statusCode).toBe(409);
    await t.app.ctx.db
      .updateTable('customers')
      .set({ customerKey: 'IDEMKEY002' })
      .where('id', '=', taken.json().id)
      .execute();
    const replayed = await create(admin, body, 'key-refused');
    expect(replayed.statusCode).toBe(409);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(await customersNamed('Idempotent Clash')).toBe(0);
  });

  it('creates every time without a key, and refuses a malformed key', async () => {
    const body = { name: 'Idempotent Without' };
    expect((await create(admin, body)).statusCode).toBe(201);
    expect((await create(admin, body)).statusCode).toBe(201);
    expect(await customersNamed('Idempotent Without')).toBe(2);
    for (const bad of ['', 'a b', 'x'.repeat(256), 'é']) {
      const response = await create(admin, { name: 'Idempotent Bad' }, bad);
      expect(response.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect(await customersNamed('Idempotent Bad')).toBe(0);
  });

  it('forgets keys after a day', async () => {
    expect((await create(admin, { name: 'Idempotent Aged' }, 'key-aged')).statusCode).toBe(201);
    await purgeIdempotencyKeys(t.app.ctx, Date.now() + IDEMPOTENCY_TTL_MS + 60_000);
    const later = await create(admin, { name: 'Idempotent Aged' }, 'key-aged');
    expect(later.statusCode).toBe(201);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(await customersNamed('Idempotent Aged')).toBe(2);
  });

  it('is named in the OpenAPI document on the routes that honour it', async () => {
    const document = (await t.app.inject({ url: '/api/docs/json' })).json();
    const parameters = (path: string, method: string) =>
      (document.paths[path][method].parameters ?? []) as { in: string; name: string }[];
    expect(parameters('/api/customers', 'post')).toContainEqual(
      expect.objectContaining({ in: 'header', name: 'idempotency-key' }),
    );
    expect(parameters('/api/customers/{id}', 'patch').some((p) => p.name === 'idempotency-key')).toBe(false);
  });

  it('is honoured by every route that creates (answers 201)', async () => {
    const routes: RouteOptions[] = [];
    const app = await buildApp(t.config, {
      database: t.database,
      startBackgroundWork: false,
      onRoute: (route) => routes.push(route),
    });
    await app.close();
    const creating = routes.filter((route) => (route.schema?.response as Record<number, unknown> | undefined)?.[201]);
    expect(creating.length).toBeGreaterThanOrEqual(8);
    const without = creating.filter((route) => !route.config?.idempotent).map((route) => route.url);
    expect(without).toEqual([]);
  });
});
