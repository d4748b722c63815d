import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Instance, InstanceList } from '../../../common/api/instances';
import type { MemberRole } from '../../../common/roles';
import { createCustomer, signedIn } from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';
import { createInstance } from '../../test/instances';
import { makeJobsDue } from '../../test/jobs';
import { INSTANCE_DELETE_DATA_JOB } from './job-names';
import * as repo from './repo';

/**
 * The customer page's instances and the staff's archive and restore (docs/instances.md): 401, 400,
 * 403/404, then what each route does. Who may call them at all is the authorisation matrix's.
 */

let t: TestApp;
let customerId: number;
const cookies = new Map<string, string>();

beforeAll(async () => {
  t = await createTestApp({ INSTANCE_LOGS_URL_TEMPLATE: 'https://logs.example.com/{customerKey}/{name}?id={id}' });
  customerId = (await createCustomer(t.app.ctx.db, { name: 'Instances Ltd', customerKey: 'INSTANCE01' })).id;
  for (const type of ['admin', 'supportEngineer', 'productManager'] as const) {
    cookies.set(type, (await signedIn(t.app, type)).cookie);
  }
  for (const role of ['accountExecutive', 'businessOwner', 'technicalContact', 'endUser'] as MemberRole[]) {
    const type = role === 'accountExecutive' ? 'accountExecutive' : 'client';
    cookies.set(role, (await signedIn(t.app, type, { id: customerId, role })).cookie);
  }
  cookies.set(
    'stranger',
    (await signedIn(t.app, 'client', { id: (await createCustomer(t.app.ctx.db)).id, role: 'businessOwner' })).cookie,
  );
});
afterAll(async () => t?.close());

const list = (cookie: string | null, id = customerId, query = '') =>
  request(t.app, cookie, { method: 'GET', url: `/api/customers/${id}/instances${query}` });
const act = (cookie: string | null, id: number, action: 'archive' | 'restore') =>
  request(t.app, cookie, { method: 'POST', url: `/api/instances/${id}/${action}` });

describe('GET /api/customers/{id}/instances', () => {
  let ready: number;
  let creating: number;
  let archived: number;
  beforeAll(async () => {
    const { db } = t.app.ctx;
    ready = await createInstance(db, customerId, 'provisioned', { name: 'ready-one' });
    creating = await createInstance(db, customerId, 'creating', { name: 'new-one' });
    archived = await createInstance(db, customerId, 'archived', { name: 'old-one', deleteDataDelayInDays: 10 });
  });

  it('answers 401 without a session, 400 for a bad page, 404 to a stranger and for an unknown customer', async () => {
    expect((await list(null)).statusCode).toBe(401);
    expect((await list(cookies.get('admin')!, customerId, '?pageLength=0')).statusCode).toBe(400);
    expect((await list(cookies.get('admin')!, customerId, '?pageOffset=x')).statusCode).toBe(400);
    expect((await list(cookies.get('stranger')!)).statusCode).toBe(404);
    expect((await list(cookies.get('admin')!, 2_000_000)).statusCode).toBe(404);
  });

  it('shows every role the instances, the address only when provisioned, the logs only to support and admins', async () => {
    for (const role of [
      'admin',
      'supportEngineer',
      'productManager',
      'accountExecutive',
      'businessOwner',
      'technicalContact',
      'endUser',
    ]) {
      const response = await list(cookies.get(role)!);
      expect(response.statusCode, role).toBe(200);
      const body = response.json<InstanceList>();
      expect(body.total, role).toBe(3);
      const byId = new Map(body.data.map((item) => [item.id, item]));
      const staff = role === 'admin' || role === 'supportEngineer';
      expect(byId.get(ready), role).toMatchObject({
        name: 'ready-one',
        tier: 'trial',
        status: 'provisioned',
        url: 'https://ready-one.instances.example.com',
        logsUrl: staff ? `https://logs.example.com/INSTANCE01/ready-one?id=${ready}` : null,
        deleteDataDelayInDays: 30,
        deleteDataAt: null,
        can: { open: true, logs: staff, archive: staff, restore: false },
      });
      expect(byId.get(creating), role).toMatchObject({
        status: 'creating',
        url: null,
        logsUrl: null,
        can: { open: false, logs: false, archive: false, restore: false },
      });
      // archived: no address (it no longer answers), and when its data goes
      const old = byId.get(archived)!;
      expect(old, role).toMatchObject({ status: 'archived', url: null, logsUrl: null, deleteDataDelayInDays: 10 });
      expect(old.can, role).toEqual({ open: false, logs: false, archive: false, restore: staff });
      expect(Date.parse(old.deleteDataAt!) - Date.now(), role).toBeGreaterThan(9.9 * 24 * 3600 * 1000);
    }
  });

  it('pages the list, oldest first', async () => {
    const first = (await list(cookies.get('admin')!, customerId, '?pageOffset=0&pageLength=2')).json<InstanceList>();
    const second = (await list(cookies.get('admin')!, customerId, '?pageOffset=2&pageLength=2')).json<InstanceList>();
    expect(first.data.map((i) => i.id)).toEqual([ready, creating]);
    expect(second).toMatchObject({ offset: 2, total: 3, totalCapped: false });
    expect(second.data.map((i) => i.id)).toEqual([archived]);
  });

  it('answers an empty list for a customer without instances', async () => {
    const empty = await createCustomer(t.app.ctx.db);
    const response = await list(cookies.get('admin')!, empty.id);
    expect(response.json()).toEqual({ data: [], offset: 0, total: 0, totalCapped: false });
  });
});

describe('POST /api/instances/{id}/archive and /restore', () => {
  it('answers 401 without a session, 404 for an unknown instance or a stranger, 403 to roles that do not manage instances', async () => {
    const id = await createInstance(t.app.ctx.db, customerId, 'provisioned');
    expect((await act(null, id, 'archive')).statusCode).toBe(401);
    expect((await act(cookies.get('admin')!, 2_000_000, 'archive')).statusCode).toBe(404);
    expect((await act(cookies.get('stranger')!, id, 'archive')).statusCode).toBe(404);
    for (const role of ['productManager', 'accountExecutive', 'businessOwner', 'technicalContact', 'endUser']) {
      expect((await act(cookies.get(role)!, id, 'archive')).statusCode, role).toBe(403);
      expect((await act(cookies.get(role)!, id, 'restore')).statusCode, role).toBe(403);
    }
    expect((await repo.findInstance(t.app.ctx.db, id))?.status).toBe('provisioned');
  });

  it('archives a provisioned instance and restores it, audited with the staff member, and the queued deletion then does nothing', async () => {
    const { db } = t.app.ctx;
    const id = await createInstance(db, customerId, 'provisioned', { name: 'staff-archived' });
    const archived = await act(cookies.get('supportEngineer')!, id, 'archive');
    expect(archived.statusCode, archived.body).toBe(200);
    expect(archived.json<Instance>()).toMatchObject({
      id,
      status: 'archived',
      url: null,
      can: { open: false, logs: false, archive: false, restore: true },
    });
    expect(await repo.findInstance(db, id)).toMatchObject({ status: 'archived', archivedFor: 'staff' });
    // a staff archive is not the customer's unpaid bill: no mail about it
    const archiveMails = await db
      .selectFrom('mailOutbox')
      .select('id')
      .where('template', '=', 'instanceArchived')
      .execute();
    expect(archiveMails).toEqual([]);

    const restored = await act(cookies.get('admin')!, id, 'restore');
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json<Instance>()).toMatchObject({
      status: 'provisioned',
      url: 'https://staff-archived.instances.example.com',
    });

    await t.app.ctx.jobs.drain();
    await makeJobsDue(db, INSTANCE_DELETE_DATA_JOB);
    await t.app.ctx.jobs.drain();
    expect((await repo.findInstance(db, id))?.status).toBe('provisioned');

    const entries = await db
      .selectFrom('auditLog')
      .select(['action', 'actorKind', 'data'])
      .where('customerId', '=', customerId)
      .where('action', 'in', ['archiveInstance', 'restoreInstance', 'deleteInstanceData'])
      .where('data', 'like', `%"instanceId":${id},%`)
      .orderBy('id')
      .execute();
    expect(entries.map((e) => [e.action, e.actorKind])).toEqual([
      ['archiveInstance', 'user'],
      ['restoreInstance', 'user'],
    ]);
    expect(JSON.parse(entries[0].data)).toMatchObject({ from: 'provisioned', to: 'archived', reason: 'staff' });
  });

  it('answers 409 with a clear message for a move the lifecycle does not allow', async () => {
    const { db } = t.app.ctx;
    const cases: [Parameters<typeof createInstance>[2], 'archive' | 'restore'][] = [
      ['creating', 'archive'],
      ['provisioning', 'archive'],
      ['archived', 'archive'],
      ['deleted', 'archive'],
      ['provisioned', 'restore'],
      ['provisioning', 'restore'],
      ['deleting', 'restore'],
      ['deleted', 'restore'],
    ];
    for (const [status, action] of cases) {
      const id = await createInstance(db, customerId, status, { name: `conflict-${status}` });
      const response = await act(cookies.get('admin')!, id, action);
      expect(response.statusCode, `${action} ${status}`).toBe(409);
      expect(response.json().error).toMatchObject({
        code: 'conflict',
        message: `The cloud instance conflict-${status} is ${status}: it cannot become ${action === 'archive' ? 'archived' : 'provisioned'}.`,
      });
      expect((await repo.findInstance(db, id))?.status).toBe(status);
    }
  });
});
