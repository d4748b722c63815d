import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { INSTANCE_STATUSES } from '../../../common/domain';
import { INSTANCE_TRANSITIONS, mayMoveInstance } from '../../../common/instances';
import { integrationActor } from '../../actor';
import type { AppContext } from '../../context';
import { HttpError } from '../../http-error';
import { createCustomer } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { createInstance } from '../../test/instances';
import { moveStatus } from './lifecycle';
import * as repo from './repo';

/**
 * The lifecycle table (common/instances.ts) walked pair by pair through the one function that moves
 * a status: every allowed move is made and audited; every other pair, the same status included, is
 * refused with 409, logged, and leaves the instance as it was.
 */

let t: TestApp;
let ctx: AppContext;
let customerId: number;

beforeAll(async () => {
  t = await createTestApp();
  ctx = t.app.ctx;
  customerId = (await createCustomer(ctx.db)).id;
});
afterAll(async () => t?.close());

describe('the instance lifecycle', () => {
  it('is the table of the specification', () => {
    expect(INSTANCE_TRANSITIONS).toEqual({
      creating: ['provisioning'],
      provisioning: ['provisioned'],
      provisioned: ['archived'],
      archived: ['provisioned', 'deleting'],
      deleting: ['deleted'],
      deleted: [],
    });
  });

  it('makes every allowed move and refuses every other pair', async () => {
    const warn = vi.spyOn(ctx.log, 'warn');
    const actor = integrationActor('provisioner');
    let allowed = 0;
    let refused = 0;
    for (const from of INSTANCE_STATUSES) {
      for (const to of INSTANCE_STATUSES) {
        const id = await createInstance(ctx.db, customerId, from);
        const instance = (await repo.findInstance(ctx.db, id))!;
        const move = ctx.db
          .transaction()
          .execute((trx) => moveStatus(ctx, trx, actor, instance, { to, action: 'updateInstanceStatus' }));
        if (mayMoveInstance(from, to)) {
          await expect(move, `${from} -> ${to}`).resolves.toMatchObject({ id, status: to });
          const entry = await ctx.db
            .selectFrom('auditLog')
            .select(['action', 'actorKind', 'actorName', 'data'])
            .where('data', 'like', `%"instanceId":${id},%`)
            .executeTakeFirstOrThrow();
          expect(entry).toMatchObject({
            action: 'updateInstanceStatus',
            actorKind: 'integration',
            actorName: 'provisioner',
          });
          expect(JSON.parse(entry.data)).toMatchObject({ from, to });
          allowed++;
        } else {
          const error = await move.then(
            () => null,
            (e: unknown) => e,
          );
          expect(error, `${from} -> ${to}`).toBeInstanceOf(HttpError);
          expect((error as HttpError).statusCode).toBe(409);
          expect((await repo.findInstance(ctx.db, id))?.status, `${from} -> ${to}`).toBe(from);
          expect(warn).toHaveBeenLastCalledWith(
            expect.objectContaining({ instanceId: id, from, to, actor: 'integration:provisioner' }),
            'cloud instance transition refused',
          );
          refused++;
        }
      }
    }
    expect([allowed, refused]).toEqual([6, 30]);
  });

  it('refuses a move another change made first: of two racing, one moves the instance', async () => {
    const id = await createInstance(ctx.db, customerId, 'provisioned');
    const instance = (await repo.findInstance(ctx.db, id))!;
    const actor = integrationActor('provisioner');
    const archive = () =>
      ctx.db
        .transaction()
        .execute((trx) => moveStatus(ctx, trx, actor, instance, { to: 'archived', action: 'archiveInstance' }));
    const results = await Promise.allSettled([archive(), archive()]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const entries = await ctx.db
      .selectFrom('auditLog')
      .select('id')
      .where('data', 'like', `%"instanceId":${id},%`)
      .execute();
    expect(entries).toHaveLength(1);
  });
});
