import type { Actor } from '../../actor';
import type { AppContext } from '../../context';
import type { DB } from '../../db';

/**
 * What the end of a customer's service and its return do to the customer's cloud instances
 * (docs/billing.md): archived when the service is suspended for want of payment, restored when a
 * payment comes back before their data is deleted. The instances module owns the instances and
 * their deletion delay; billing only says when, once per suspension (subscriptions.suspended_at),
 * in the transaction of the status change. Until the instances module provides its archive and
 * restore calls (`archiveCustomerInstances`, `restoreCustomerInstances` of
 * server/modules/instances/service.ts), the change is logged and there is nothing to archive.
 */
export async function suspendCustomerService(
  _trx: DB,
  ctx: AppContext,
  actor: Actor,
  input: { customerId: number },
): Promise<void> {
  ctx.log.info({ customerId: input.customerId, actor: actor.kind }, 'customer service suspended for want of payment');
}

export async function restoreCustomerService(
  _trx: DB,
  ctx: AppContext,
  actor: Actor,
  input: { customerId: number },
): Promise<void> {
  ctx.log.info({ customerId: input.customerId, actor: actor.kind }, 'customer service restored by a payment');
}
