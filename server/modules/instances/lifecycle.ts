import crypto from 'node:crypto';
import type { AuditAction } from '../../../common/audit';
import type { InstanceArchiveReason, InstanceStatus } from '../../../common/domain';
import { mayMoveInstance } from '../../../common/instances';
import { type Actor, actorLabel } from '../../actor';
import type { AppContext } from '../../context';
import { type DB, nowIso } from '../../db';
import { conflict } from '../../http-error';
import type { ProvisionerCommand } from '../../integrations/provisioner';
import { auditActorOf, insertAuditEntry } from '../audit/repo';
import { INSTANCE_DELETE_DATA_JOB, INSTANCE_ORDER_JOB } from './job-names';
import { tellArchived, tellDataDeleted } from './mails';
import * as repo from './repo';
import type { InstanceRow, StatusMove } from './repo';

/**
 * The moves of an instance's status, each in the caller's transaction with its audit entry and
 * what follows from it (an order to the provisioner, a data deletion, a mail): the one place that
 * changes a status, so every move goes through the table of common/instances.ts.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** A move the table refuses, or one another change got to first: 409, and a line in the log. */
function refused(ctx: AppContext, actor: Actor, instance: InstanceRow, to: InstanceStatus) {
  ctx.log.warn(
    { instanceId: instance.id, from: instance.status, to, actor: actorLabel(actor) },
    'cloud instance transition refused',
  );
  return conflict(`The cloud instance ${instance.name} is ${instance.status}: it cannot become ${to}.`);
}

/**
 * Moves `instance` to `to` if the table allows it and nothing moved it meanwhile, and writes the
 * audit entry; otherwise throws 409 (logged). Returns the moved row.
 */
export async function moveStatus(
  ctx: AppContext,
  executor: DB,
  actor: Actor,
  instance: InstanceRow,
  move: Omit<StatusMove, 'from'> & { action: AuditAction; data?: Record<string, unknown> },
): Promise<InstanceRow> {
  const { action, data, ...change } = move;
  if (!mayMoveInstance(instance.status, change.to)) throw refused(ctx, actor, instance, change.to);
  const moved = await repo.moveInstance(executor, instance.id, { ...change, from: instance.status });
  if (!moved) {
    const now = (await repo.findInstance(executor, instance.id)) ?? instance;
    throw refused(ctx, actor, now, change.to);
  }
  await insertAuditEntry(executor, {
    customerId: instance.customerId,
    by: auditActorOf(actor),
    action,
    data: { instanceId: instance.id, name: instance.name, from: instance.status, to: change.to, ...data },
  });
  ctx.log.info(
    { instanceId: instance.id, from: instance.status, to: change.to, actor: actorLabel(actor) },
    'cloud instance moved',
  );
  return moved;
}

/** Queues an order to the provisioner, with the id it keeps at every attempt. */
export async function queueOrder(ctx: AppContext, executor: DB, instanceId: number, command: ProvisionerCommand) {
  await ctx.jobs.enqueue(executor, INSTANCE_ORDER_JOB, { instanceId, command, orderId: crypto.randomUUID() });
}

/** Days an archived instance keeps its data: its own setting, else the configuration's. */
export const deleteDataDelayOf = (ctx: AppContext, instance: InstanceRow) =>
  instance.deleteDataDelayInDays ?? ctx.config.instances.deleteDataDelayInDays;

/**
 * Archives a provisioned instance: the orchestrator suspends it, its data deletion is queued for
 * the end of its delay, and when non-payment is the reason its business owners and account
 * executive are told.
 */
export async function archive(
  ctx: AppContext,
  executor: DB,
  actor: Actor,
  instance: InstanceRow,
  reason: InstanceArchiveReason,
): Promise<InstanceRow> {
  const archivedAt = nowIso();
  const delay = deleteDataDelayOf(ctx, instance);
  const deleteAt = new Date(Date.parse(archivedAt) + delay * DAY_MS);
  const moved = await moveStatus(ctx, executor, actor, instance, {
    to: 'archived',
    archivedAt,
    archivedFor: reason,
    action: 'archiveInstance',
    data: { reason, deleteDataAt: deleteAt.toISOString() },
  });
  await ctx.jobs.enqueue(
    executor,
    INSTANCE_DELETE_DATA_JOB,
    { instanceId: instance.id, archivedAt },
    { runAt: deleteAt },
  );
  await queueOrder(ctx, executor, instance.id, 'suspend');
  if (reason === 'unpaid') await tellArchived(ctx, executor, moved, { delayInDays: delay, deleteAt });
  return moved;
}

/**
 * Brings an archived instance back (409 for any other): the orchestrator resumes it; its queued
 * deletion will find it live.
 */
export async function restore(
  ctx: AppContext,
  executor: DB,
  actor: Actor,
  instance: InstanceRow,
): Promise<InstanceRow> {
  // provisioning -> provisioned is the provisioner's move, not a restore
  if (instance.status !== 'archived') throw refused(ctx, actor, instance, 'provisioned');
  const moved = await moveStatus(ctx, executor, actor, instance, {
    to: 'provisioned',
    archivedAt: null,
    archivedFor: null,
    action: 'restoreInstance',
    data: { reason: instance.archivedFor },
  });
  await queueOrder(ctx, executor, instance.id, 'resume');
  return moved;
}

/**
 * The end of an archive's delay (the `instances.deleteData` job): the instance's data deletion
 * starts, once, and is told; unless the instance is no longer in the archive this job was queued
 * for (restored meanwhile, perhaps archived again since, or gone).
 */
export async function startDataDeletion(
  ctx: AppContext,
  actor: Actor,
  payload: { instanceId: number; archivedAt: string },
): Promise<'started' | 'skipped'> {
  return ctx.db.transaction().execute(async (trx) => {
    const instance = await repo.findInstance(trx, payload.instanceId);
    if (!instance || instance.status !== 'archived' || instance.archivedAt !== payload.archivedAt) {
      ctx.log.info(
        { instanceId: payload.instanceId, status: instance?.status ?? null },
        'cloud instance data deletion skipped: no longer in the archive it was queued for',
      );
      return 'skipped';
    }
    const moved = await moveStatus(ctx, trx, actor, instance, { to: 'deleting', action: 'deleteInstanceData' });
    await queueOrder(ctx, trx, instance.id, 'delete');
    await tellDataDeleted(ctx, trx, moved);
    return 'started';
  });
}
