import { type Actor, integrationActor } from '../../actor';
import type { AppContext } from '../../context';
import type { DB } from '../../db';
import { badRequest, HttpError, notFound } from '../../http-error';
import type { ProvisionerReport } from '../../integrations/provisioner';
import { INSTANCE_SIMULATE_JOB } from './job-names';
import { moveStatus } from './lifecycle';
import * as repo from './repo';

/**
 * A step the provisioner reports (an orchestrator's callback, or the local simulator's job): the
 * instance moves to the status it names, audited as the provisioner's doing. Reporting the status
 * the instance is already in changes nothing ('unchanged'), so a step told twice is applied once; a
 * move the table refuses is a 409 (and a log line).
 */
export async function applyReport(
  ctx: AppContext,
  executor: DB,
  actor: Actor,
  input: { instanceId: number; report: ProvisionerReport },
): Promise<'applied' | 'unchanged'> {
  const { report } = input;
  const instance = await repo.findInstance(executor, input.instanceId);
  if (!instance) throw notFound('Cloud instance not found');
  if (instance.status === report.status) return 'unchanged';
  if (report.status === 'provisioned' && !report.url) throw badRequest('A provisioned instance needs its url');
  await moveStatus(ctx, executor, actor, instance, {
    to: report.status,
    ...(report.status === 'provisioned' ? { url: report.url } : {}),
    action: 'updateInstanceStatus',
  });
  return 'applied';
}

/**
 * The local simulator's next step (the `instances.simulate` job): applied as the provisioner, then
 * the step after it queued one delay later, in the same transaction. A step the instance can no
 * longer take (archived meanwhile, say) ends the simulation: retrying it would change nothing.
 */
export async function playSimulatedStep(
  ctx: AppContext,
  payload: { instanceId: number; steps: ProvisionerReport[] },
): Promise<void> {
  const [step, ...rest] = payload.steps;
  if (!step) return;
  await ctx.db.transaction().execute(async (trx) => {
    try {
      await applyReport(ctx, trx, integrationActor('provisioner'), { instanceId: payload.instanceId, report: step });
    } catch (error) {
      if (error instanceof HttpError) return;
      throw error;
    }
    if (rest.length > 0) {
      await ctx.jobs.enqueue(
        trx,
        INSTANCE_SIMULATE_JOB,
        { instanceId: payload.instanceId, steps: rest },
        {
          runAt: simulatorDelay(ctx),
        },
      );
    }
  });
}

/** When the simulator's next step is due. */
export const simulatorDelay = (ctx: AppContext) =>
  new Date(Date.now() + ctx.config.instances.provisioningDelaySeconds * 1000);
