import type { Instance, InstanceList, InstanceListQuery } from '../../../common/api/instances';
import { LIVE_INSTANCE_STATUSES } from '../../../common/instances';
import type { Actor } from '../../actor';
import type { AppContext } from '../../context';
import type { DB } from '../../db';
import { notFound } from '../../http-error';
import type { CustomerAccess } from '../../policy';
import { auditActorOf, insertAuditEntry } from '../audit/repo';
import { archive, deleteDataDelayOf, queueOrder, restore } from './lifecycle';
import { instanceAbilities } from './policy';
import * as repo from './repo';
import type { InstanceRow } from './repo';

/**
 * Cloud instances (docs/instances.md): the trial instance of a self-service customer, the grace
 * chain's archive and restore of a customer's instances, the customer page's list, and the staff's
 * archive and restore of one instance. Status moves go through lifecycle.ts, and so through the
 * table of common/instances.ts.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** The tier of the instance a self-service sign-up gets. */
const TRIAL_TIER = 'trial';

/**
 * A trial instance's name: the customer's name as a DNS label (lower-case letters, digits, dashes;
 * accents dropped; at most 40 characters), then its key, which makes it unique and stable.
 */
export function instanceName(customer: { name: string; customerKey: string }): string {
  const slug = customer.name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return `${slug || 'instance'}-${customer.customerKey.toLowerCase()}`;
}

/**
 * The customer's trial instance, in the caller's transaction (`executor`): inserted `creating`, its
 * creation audited and its order to the provisioner queued, so all of it commits with the sign-up
 * or none of it does. A customer that already has a trial instance keeps it (its id is returned).
 */
export async function createTrialInstance(
  ctx: AppContext,
  executor: DB,
  actor: Actor,
  input: { customerId: number },
): Promise<number> {
  const existing = await repo.trialInstanceOf(executor, input.customerId);
  if (existing) return existing.id;
  const customer = await repo.customerFacts(executor, input.customerId);
  if (!customer) throw notFound('Customer not found');
  const name = instanceName(customer);
  const deleteDataDelayInDays = ctx.config.instances.deleteDataDelayInDays;
  const { id } = await repo.insertCloudInstance(executor, {
    customerId: customer.id,
    name,
    tier: TRIAL_TIER,
    status: 'creating',
    url: null,
    deleteDataDelayInDays,
    archivedAt: null,
    archivedFor: null,
  });
  await insertAuditEntry(executor, {
    customerId: customer.id,
    by: auditActorOf(actor),
    action: 'createInstance',
    data: { instanceId: id, name, tier: TRIAL_TIER, deleteDataDelayInDays },
  });
  await queueOrder(ctx, executor, id, 'create');
  return id;
}

/**
 * The customer's grace ended unpaid: each live instance is archived (in the caller's transaction),
 * its data deletion queued for the end of its delay, and the customer's business owners and account
 * executive told. Instances already archived are left as they are, so calling it twice archives
 * nothing more. Returns the ids archived now.
 */
export async function archiveCustomerInstances(
  ctx: AppContext,
  executor: DB,
  actor: Actor,
  input: { customerId: number },
): Promise<number[]> {
  const archived: number[] = [];
  for (const instance of await repo.instancesOfCustomer(executor, input.customerId, LIVE_INSTANCE_STATUSES)) {
    await archive(ctx, executor, actor, instance, 'unpaid');
    archived.push(instance.id);
  }
  return archived;
}

/**
 * The customer paid again: the instances non-payment archived, whose data is not being deleted yet,
 * come back (in the caller's transaction); their queued deletions then find them live and do
 * nothing. Instances staff archived stay archived. Returns the ids restored now.
 */
export async function restoreCustomerInstances(
  ctx: AppContext,
  executor: DB,
  actor: Actor,
  input: { customerId: number },
): Promise<number[]> {
  const restored: number[] = [];
  for (const instance of await repo.instancesOfCustomer(executor, input.customerId, ['archived'])) {
    if (instance.archivedFor !== 'unpaid') continue;
    await restore(ctx, executor, actor, instance);
    restored.push(instance.id);
  }
  return restored;
}

/** The template filled in with the instance's name, id and customer key. */
function logsUrl(template: string, instance: InstanceRow, customerKey: string): string {
  return template
    .replaceAll('{name}', encodeURIComponent(instance.name))
    .replaceAll('{id}', String(instance.id))
    .replaceAll('{customerKey}', encodeURIComponent(customerKey));
}

function toInstance(ctx: AppContext, access: CustomerAccess, row: InstanceRow): Instance {
  const can = instanceAbilities(access, row);
  const archivedAt = row.status === 'archived' && row.archivedAt ? Date.parse(row.archivedAt) : null;
  const delay = deleteDataDelayOf(ctx, row);
  return {
    id: row.id,
    name: row.name,
    tier: row.tier,
    status: row.status,
    url: row.status === 'provisioned' ? row.url : null,
    logsUrl: can.logs ? logsUrl(ctx.config.instances.logsUrlTemplate, row, access.customer.customerKey) : null,
    deleteDataDelayInDays: delay,
    deleteDataAt: archivedAt === null ? null : new Date(archivedAt + delay * DAY_MS).toISOString(),
    can,
  };
}

/** `GET /api/customers/{id}/instances`: a page of the customer's instances, oldest first, for every role. */
export async function listInstances(
  ctx: AppContext,
  _actor: Actor,
  input: { customerAccess: CustomerAccess; query: InstanceListQuery },
): Promise<InstanceList> {
  const { customerAccess, query } = input;
  const page = await repo.listInstances(ctx.db, customerAccess.customer.id, {
    offset: query.pageOffset,
    length: query.pageLength,
  });
  return {
    data: page.rows.map((row) => toInstance(ctx, customerAccess, row)),
    offset: query.pageOffset,
    total: page.total,
    totalCapped: false,
  };
}

/** A staff member archives one provisioned instance (409 otherwise); its data deletion is queued. */
export async function archiveInstance(
  ctx: AppContext,
  actor: Actor,
  input: { customerAccess: CustomerAccess; id: number },
): Promise<Instance> {
  return ctx.db.transaction().execute(async (trx) => {
    const instance = await repo.findInstance(trx, input.id);
    if (!instance) throw notFound('Cloud instance not found');
    return toInstance(ctx, input.customerAccess, await archive(ctx, trx, actor, instance, 'staff'));
  });
}

/** A staff member restores one archived instance (409 otherwise), whatever archived it. */
export async function restoreInstance(
  ctx: AppContext,
  actor: Actor,
  input: { customerAccess: CustomerAccess; id: number },
): Promise<Instance> {
  return ctx.db.transaction().execute(async (trx) => {
    const instance = await repo.findInstance(trx, input.id);
    if (!instance) throw notFound('Cloud instance not found');
    return toInstance(ctx, input.customerAccess, await restore(ctx, trx, actor, instance));
  });
}
