import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobActor, systemActor } from '../../actor';
import type { AppContext } from '../../context';
import { addMembership, createCustomer, createUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { makeJobsDue } from '../../test/jobs';
import { INSTANCE_DELETE_DATA_JOB, INSTANCE_ORDER_JOB, INSTANCE_SIMULATE_JOB } from './job-names';
import * as repo from './repo';
import { archiveCustomerInstances, createTrialInstance, instanceName, restoreCustomerInstances } from './service';
import { withText } from '../../test/outbox';

/**
 * The seam the sign-up and the grace chain call (docs/instances.md): a trial instance created in the
 * caller's transaction and walked by the local simulator through every status; archived when grace
 * ends unpaid, with its data deleted after its delay; restored when the payment comes back, which
 * its queued deletion then leaves alone. Each step is audited and mailed once.
 */

let t: TestApp;
let ctx: AppContext;
const signup = systemActor('signup');
const grace = jobActor('billing.grace');

beforeAll(async () => {
  t = await createTestApp();
  ctx = t.app.ctx;
});
afterAll(async () => t?.close());

/** A self-service customer with a French business owner, an English account executive and a technical contact. */
async function customerWithTeam(name = 'Café Ünïcode & Co') {
  const customer = await createCustomer(ctx.db, { name, selfService: true });
  const owner = await createUser(ctx.db, { type: 'client', fullName: 'Olga Owner', preferredLocale: 'fr' });
  const exec = await createUser(ctx.db, { type: 'accountExecutive', fullName: 'Ed Exec' });
  const tech = await createUser(ctx.db, { type: 'client', fullName: 'Tim Tech' });
  const gone = await createUser(ctx.db, { type: 'client', fullName: 'Gone Owner' });
  await addMembership(ctx.db, owner.id, customer.id, 'businessOwner');
  await addMembership(ctx.db, exec.id, customer.id, 'accountExecutive');
  await addMembership(ctx.db, tech.id, customer.id, 'technicalContact');
  await addMembership(ctx.db, gone.id, customer.id, 'businessOwner', 'disabled');
  return { ...customer, owner, exec, tech, gone };
}

const statusOf = async (id: number) => (await repo.findInstance(ctx.db, id))?.status;
const entries = (customerId: number) =>
  ctx.db
    .selectFrom('auditLog')
    .select(['action', 'actorKind', 'actorName', 'data'])
    .where('customerId', '=', customerId)
    .orderBy('id')
    .execute();
const mails = (template: string, to: string[]) =>
  ctx.db
    .selectFrom('mailOutbox')
    .select(['toAddress', 'subject', 'bodySealed'])
    .where('template', '=', template)
    .where('toAddress', 'in', to)
    .orderBy('id')
    .execute()
    .then((rows) => rows.map(withText(ctx)));

/** Runs what is due, then makes the named kinds due and runs them: one step of the simulator. */
async function step(...names: string[]) {
  await ctx.jobs.drain();
  for (const name of names) await makeJobsDue(ctx.db, name);
  await ctx.jobs.drain();
}

async function provisionedInstance(customerId: number) {
  const id = await ctx.db.transaction().execute((trx) => createTrialInstance(ctx, trx, signup, { customerId }));
  await step(INSTANCE_SIMULATE_JOB);
  await step(INSTANCE_SIMULATE_JOB);
  expect(await statusOf(id)).toBe('provisioned');
  return id;
}

describe('createTrialInstance', () => {
  it('names the instance after the customer, as a DNS label ending with its key', () => {
    expect(instanceName({ name: 'Café Ünïcode & Co', customerKey: 'AB12CD34EF' })).toBe('cafe-unicode-co-ab12cd34ef');
    expect(instanceName({ name: '***', customerKey: 'AB12CD34EF' })).toBe('instance-ab12cd34ef');
    expect(instanceName({ name: 'x'.repeat(80), customerKey: 'AB12CD34EF' })).toHaveLength(51);
  });

  it('inserts it creating in the caller’s transaction, audited, and the simulator walks it to provisioned', async () => {
    const customer = await customerWithTeam();
    const key = (
      await ctx.db.selectFrom('customers').select('customerKey').where('id', '=', customer.id).executeTakeFirstOrThrow()
    ).customerKey;
    const id = await ctx.db
      .transaction()
      .execute((trx) => createTrialInstance(ctx, trx, signup, { customerId: customer.id }));
    const created = await repo.findInstance(ctx.db, id);
    expect(created).toMatchObject({
      customerId: customer.id,
      name: `cafe-unicode-co-${key.toLowerCase()}`,
      tier: 'trial',
      status: 'creating',
      url: null,
      deleteDataDelayInDays: 30,
    });
    // the order is sent at once; the simulator's first step waits for its delay
    await ctx.jobs.drain();
    expect(await statusOf(id)).toBe('creating');
    await step(INSTANCE_SIMULATE_JOB);
    expect(await statusOf(id)).toBe('provisioning');
    await step(INSTANCE_SIMULATE_JOB);
    const ready = await repo.findInstance(ctx.db, id);
    expect(ready).toMatchObject({ status: 'provisioned', url: `https://${created!.name}.instances.example.com` });
    expect(await entries(customer.id)).toEqual([
      {
        action: 'createInstance',
        actorKind: 'system',
        actorName: 'signup',
        data: expect.stringContaining(`"instanceId":${id}`),
      },
      {
        action: 'updateInstanceStatus',
        actorKind: 'integration',
        actorName: 'provisioner',
        data: expect.stringContaining('"from":"creating","to":"provisioning"'),
      },
      {
        action: 'updateInstanceStatus',
        actorKind: 'integration',
        actorName: 'provisioner',
        data: expect.stringContaining('"from":"provisioning","to":"provisioned"'),
      },
    ]);
    // a second call keeps the one trial instance
    const again = await ctx.db
      .transaction()
      .execute((trx) => createTrialInstance(ctx, trx, signup, { customerId: customer.id }));
    expect(again).toBe(id);
  });

  it('leaves nothing behind when the caller’s transaction rolls back', async () => {
    const customer = await createCustomer(ctx.db, { selfService: true });
    await expect(
      ctx.db.transaction().execute(async (trx) => {
        await createTrialInstance(ctx, trx, signup, { customerId: customer.id });
        throw new Error('the sign-up failed after');
      }),
    ).rejects.toThrow('the sign-up failed after');
    expect(await repo.instancesOfCustomer(ctx.db, customer.id, ['creating'])).toEqual([]);
    expect(await entries(customer.id)).toEqual([]);
    const waiting = (await ctx.jobs.counts()).filter((c) => c.name === INSTANCE_ORDER_JOB && c.state === 'created');
    expect(waiting.reduce((sum, c) => sum + c.count, 0)).toBe(0);
  });

  it('takes the data deletion delay from the configuration', async () => {
    const other = await createTestApp({ INSTANCE_DELETE_DATA_DELAY_DAYS: '7' });
    try {
      const c = other.app.ctx;
      const customer = await createCustomer(c.db, { selfService: true });
      const id = await c.db
        .transaction()
        .execute((trx) => createTrialInstance(c, trx, signup, { customerId: customer.id }));
      expect((await repo.findInstance(c.db, id))?.deleteDataDelayInDays).toBe(7);
    } finally {
      await other.close();
    }
  });
});

describe('the grace chain', () => {
  it('archives the live instances once, tells the owners and the account executive in their language, then deletes the data after the delay', async () => {
    const customer = await customerWithTeam('Grace Ends Ltd');
    const id = await provisionedInstance(customer.id);
    const archived = await ctx.db
      .transaction()
      .execute((trx) => archiveCustomerInstances(ctx, trx, grace, { customerId: customer.id }));
    expect(archived).toEqual([id]);
    const row = await repo.findInstance(ctx.db, id);
    expect(row).toMatchObject({ status: 'archived', archivedFor: 'unpaid' });
    // twice changes nothing more
    expect(
      await ctx.db
        .transaction()
        .execute((trx) => archiveCustomerInstances(ctx, trx, grace, { customerId: customer.id })),
    ).toEqual([]);

    const everyone = [customer.owner.email, customer.exec.email, customer.tech.email, customer.gone.email];
    const told = await mails('instanceArchived', everyone);
    expect(told.map((m) => m.toAddress)).toEqual([customer.owner.email, customer.exec.email]);
    expect(told[0].subject).toBe(`L’instance cloud ${row!.name} de Grace Ends Ltd est désactivée`);
    expect(told[0].textBody).toContain('Ses données seront supprimées dans 30 jours, le ');
    expect(told[1].subject).toBe(`The cloud instance ${row!.name} of Grace Ends Ltd is disabled`);
    expect(told[1].textBody).toContain(`http://portal.test/en/accounts/${customer.id}`);

    // the deletion waits for its delay: drained now, nothing happens
    await ctx.jobs.drain();
    expect(await statusOf(id)).toBe('archived');
    await step(INSTANCE_DELETE_DATA_JOB);
    expect(await statusOf(id)).toBe('deleting');
    const deleting = await mails('instanceDataDeleted', everyone);
    expect(deleting.map((m) => m.toAddress)).toEqual([customer.owner.email, customer.exec.email]);
    expect(deleting[1].subject).toBe(`The data of the cloud instance ${row!.name} of Grace Ends Ltd is being deleted`);
    await step(INSTANCE_SIMULATE_JOB);
    expect(await statusOf(id)).toBe('deleted');

    const actions = (await entries(customer.id)).slice(3).map((e) => [e.action, e.actorKind, e.actorName]);
    expect(actions).toEqual([
      ['archiveInstance', 'job', 'billing.grace'],
      ['deleteInstanceData', 'job', INSTANCE_DELETE_DATA_JOB],
      ['updateInstanceStatus', 'integration', 'provisioner'],
    ]);
    // each step told once
    await step(INSTANCE_DELETE_DATA_JOB, INSTANCE_SIMULATE_JOB);
    expect(await mails('instanceArchived', everyone)).toHaveLength(2);
    expect(await mails('instanceDataDeleted', everyone)).toHaveLength(2);
  });

  it('restores what non-payment archived, and the queued deletion then does nothing, even after a second archive', async () => {
    const customer = await customerWithTeam('Pays Again Inc');
    const id = await provisionedInstance(customer.id);
    const firstArchive = () =>
      ctx.db.transaction().execute((trx) => archiveCustomerInstances(ctx, trx, grace, { customerId: customer.id }));
    await firstArchive();
    const restored = await ctx.db
      .transaction()
      .execute((trx) => restoreCustomerInstances(ctx, trx, grace, { customerId: customer.id }));
    expect(restored).toEqual([id]);
    expect(await repo.findInstance(ctx.db, id)).toMatchObject({
      status: 'provisioned',
      archivedAt: null,
      archivedFor: null,
    });
    // archived again: the first archive's deletion is due first, and must not delete this one's data early
    await new Promise((resolve) => setTimeout(resolve, 5));
    await firstArchive();
    const secondArchive = (await repo.findInstance(ctx.db, id))!.archivedAt;
    await step(INSTANCE_DELETE_DATA_JOB);
    // both deletions were made due: the first one skips, the second one (its archive) starts
    expect(await statusOf(id)).toBe('deleting');
    const deletions = (await entries(customer.id)).filter((e) => e.action === 'deleteInstanceData');
    expect(deletions).toHaveLength(1);
    expect(secondArchive).not.toBeNull();
  });

  it('restores nothing staff archived, and nothing whose data is being deleted', async () => {
    const customer = await customerWithTeam('Staff Archived Co');
    const id = await provisionedInstance(customer.id);
    const instance = (await repo.findInstance(ctx.db, id))!;
    const { archive } = await import('./lifecycle');
    await ctx.db.transaction().execute((trx) => archive(ctx, trx, systemActor('support'), instance, 'staff'));
    expect(
      await ctx.db
        .transaction()
        .execute((trx) => restoreCustomerInstances(ctx, trx, grace, { customerId: customer.id })),
    ).toEqual([]);
    expect(await statusOf(id)).toBe('archived');
    // staff archives are not mailed; data deletion is
    expect(await mails('instanceArchived', [customer.owner.email])).toEqual([]);
    await step(INSTANCE_DELETE_DATA_JOB);
    expect(await statusOf(id)).toBe('deleting');
    expect(
      await ctx.db
        .transaction()
        .execute((trx) => restoreCustomerInstances(ctx, trx, grace, { customerId: customer.id })),
    ).toEqual([]);
    expect(await mails('instanceDataDeleted', [customer.owner.email])).toHaveLength(1);
  });
});
