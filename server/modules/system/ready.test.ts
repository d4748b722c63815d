import { afterEach, describe, expect, it } from 'vitest';
import { undoLastMigration } from '../../db';
import { createTestApp, type TestApp } from '../../test/harness';

/** GET /api/ready: 200 only when the database answers, every migration has run and the node is not draining. */

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const ready = async (app: TestApp) => {
  const response = await app.app.inject({ url: '/api/ready' });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> };
};

describe('GET /api/ready', () => {
  it('is ready on a migrated database, and answers 503 once the node drains', async () => {
    t = await createTestApp();
    expect(await ready(t)).toEqual({
      status: 200,
      body: { status: 'ready', database: 'ok', migrations: 'applied', draining: false },
    });
    t.app.ctx.readiness.draining = true;
    expect(await ready(t)).toEqual({
      status: 503,
      body: { status: 'unavailable', database: 'ok', migrations: 'applied', draining: true },
    });
  });

  it('answers 503 while a migration is pending, and when the database does not answer', async () => {
    t = await createTestApp();
    await undoLastMigration(t.database);
    expect(await ready(t)).toEqual({
      status: 503,
      body: { status: 'unavailable', database: 'ok', migrations: 'pending', draining: false },
    });
    await t.database.close();
    expect(await ready(t)).toEqual({
      status: 503,
      body: { status: 'unavailable', database: 'unreachable', migrations: 'unknown', draining: false },
    });
  });
});
