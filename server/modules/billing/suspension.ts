import type { Actor } from '../../actor';
import type { AppContext } from '../../context';
import type { DB } from '../../db';
import { archiveCustomerInstances, restoreCustomerInstances } from '../instances/service';

/**
 * What the end of a customer's service and its return do to the customer's cloud instances
 * (docs/billing.md): archived when the service is suspended for want of payment, restored when a
 * payment comes back before their data is deleted. The instances module owns the instances, their
 * deletion delay and its mails; billing says when, once per suspension (subscriptions.suspended_at),
 * in the transaction of the status change.
 */
export async function suspendCustomerService(
  ctx: AppContext,
  trx: DB,
  actor: Actor,
  input: { customerId: number },
): Promise<void> {
  const archived = await archiveCustomerInstances(ctx, trx, actor, input);
  ctx.log.info({ customerId: input.customerId, archived }, 'customer service suspended for want of payment');
}

export async function restoreCustomerService(
  ctx: AppContext,
  trx: DB,
  actor: Actor,
  input: { customerId: number },
): Promise<void> {
  const restored = await restoreCustomerInstances(ctx, trx, actor, input);
  ctx.log.info({ customerId: input.customerId, restored }, 'customer service restored by a payment');
}
