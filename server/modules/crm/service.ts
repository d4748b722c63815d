import { ERROR_CODES } from '../../../common/api/errors';
import { type Actor, actorLabel, integrationActor } from '../../actor';
import type { AppContext } from '../../context';
import type { DB } from '../../db';
import { HttpError, notConfigured, notFound } from '../../http-error';
import { createCrm, CrmError } from '../../integrations/crm';
import { auditActorOf, insertAuditEntry } from '../audit/repo';
import * as repo from './repo';

export const CRM_SYNC_JOB = 'crm.syncCustomer';
declare module '../../jobs/types' {
  interface QueuedJobs {
    /** a customer created or changed in the portal, pushed to the CRM (CRM_SYNC_ON_CHANGE) */
    'crm.syncCustomer': { customerId: number };
  }
}

const NOT_CONFIGURED = 'The connection to SalesForce is not configured on this portal.';

/**
 * Pushes a customer, its members and its licences to the CRM (spec 7, POST /customers/{id}/sync;
 * docs/decisions/073), upserted by the portal's ids so that a second push changes nothing, and keeps
 * the customer's CRM id. The CRM's refusal comes back as a 502 whose message is the CRM's own, which
 * the customer page shows in the spec's "could not be synced" message.
 */
export async function syncCustomerToCrm(
  ctx: AppContext,
  actor: Actor,
  input: { customerId: number },
): Promise<{ ok: true }> {
  const crm = createCrm(ctx.config.crm);
  if (!crm) throw notConfigured(ERROR_CODES.crmNotConfigured, NOT_CONFIGURED);
  const customer = await repo.crmCustomer(ctx.db, input.customerId);
  if (!customer) throw notFound('Customer not found');
  let accountId: string;
  try {
    ({ accountId } = await crm.pushCustomer(customer));
  } catch (error) {
    if (!(error instanceof CrmError)) throw error;
    ctx.log.warn({ customerId: customer.id, actor: actorLabel(actor), err: error.message }, 'CRM sync failed');
    throw new HttpError(502, ERROR_CODES.crmError, error.message);
  }
  await ctx.db.transaction().execute(async (trx) => {
    await repo.storeCrmSync(trx, customer.id, accountId, new Date().toISOString());
    await insertAuditEntry(trx, {
      customerId: customer.id,
      by: auditActorOf(actor),
      action: 'syncCustomerToCrm',
      data: { crmId: accountId },
    });
  });
  ctx.log.info({ customerId: customer.id, actor: actorLabel(actor) }, 'customer synced with the CRM');
  return { ok: true };
}

/**
 * Queues the push of a customer that was just created or changed, in the transaction of the change,
 * when the portal is told to (CRM_SYNC_ON_CHANGE). One waiting push per customer is enough: it reads
 * the customer as it is when it runs.
 */
export async function queueCrmSync(ctx: AppContext, trx: DB, customerId: number): Promise<void> {
  if (!ctx.config.crm?.syncOnChange) return;
  await ctx.jobs.enqueue(trx, CRM_SYNC_JOB, { customerId }, { singletonKey: `crm-${customerId}` });
}

/** The queued push: run as the `crm` integration, retried with backoff by the job engine. */
export function runCrmSyncJob(ctx: AppContext, payload: { customerId: number }) {
  return syncCustomerToCrm(ctx, integrationActor('crm'), payload);
}
