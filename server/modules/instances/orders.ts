import type { InstanceStatus } from '../../../common/domain';
import type { AppContext } from '../../context';
import { type ProvisionerCommand, provisionerFor } from '../../integrations/provisioner';
import { INSTANCE_SIMULATE_JOB } from './job-names';
import { simulatorDelay } from './reports';
import * as repo from './repo';

/** The status an instance is in while an order of each command still makes sense. */
const ORDERED_IN: Record<ProvisionerCommand, InstanceStatus> = {
  create: 'creating',
  suspend: 'archived',
  resume: 'provisioned',
  delete: 'deleting',
};

/**
 * One attempt of an order (the `instances.order` job): sent to the provisioner unless the instance
 * moved on since it was queued (a suspend after a restore, a create the orchestrator already
 * reported on). A provisioner that does not take it throws, and the job retries with backoff; the
 * simulator's steps are queued to play one delay apart.
 */
export async function sendOrder(
  ctx: AppContext,
  payload: { instanceId: number; command: ProvisionerCommand; orderId: string },
): Promise<'sent' | 'skipped'> {
  const instance = await repo.instanceWithCustomer(ctx.db, payload.instanceId);
  if (!instance || instance.status !== ORDERED_IN[payload.command]) {
    ctx.log.info(
      { instanceId: payload.instanceId, command: payload.command, status: instance?.status ?? null },
      'cloud instance order skipped: the instance moved on',
    );
    return 'skipped';
  }
  const { simulated } = await provisionerFor(ctx.config).send({
    id: payload.orderId,
    command: payload.command,
    instance: { id: instance.id, name: instance.name, tier: instance.tier, customerKey: instance.customerKey },
  });
  if (simulated.length > 0) {
    await ctx.jobs.enqueue(
      ctx.db,
      INSTANCE_SIMULATE_JOB,
      { instanceId: instance.id, steps: simulated },
      {
        runAt: simulatorDelay(ctx),
      },
    );
  }
  return 'sent';
}

/** After an order's last attempt: nobody took it. Operators see the failed job; the log says what it was. */
export async function orderGaveUp(
  ctx: AppContext,
  payload: { instanceId: number; command: ProvisionerCommand; orderId: string },
  error: string,
): Promise<void> {
  ctx.log.error({ ...payload, error }, 'cloud instance order failed for good: the provisioner never took it');
}
