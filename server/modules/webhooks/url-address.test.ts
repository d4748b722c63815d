import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../../client/i18n/en.json';
import { signedIn } from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';

/**
 * A webhook URL whose host is an IP address no delivery may reach is refused when it is saved, with
 * the kind of address, on creation and on edit (docs/webhooks.md); private and loopback ones follow
 * WEBHOOKS_ALLOW_PRIVATE. A name is accepted: what it resolves to is judged at each delivery.
 */

let open: TestApp;
let allowing: TestApp;
let cookies: { open: string; allowing: string };

beforeAll(async () => {
  open = await createTestApp({ WEBHOOKS_ALLOW_PRIVATE: 'false' });
  allowing = await createTestApp({ WEBHOOKS_ALLOW_PRIVATE: 'true' });
  cookies = {
    open: (await signedIn(open.app, 'admin')).cookie,
    allowing: (await signedIn(allowing.app, 'admin')).cookie,
  };
});
afterAll(async () => {
  await open?.close();
  await allowing?.close();
});

const create = (t: TestApp, cookie: string, url: string) =>
  request(t.app, cookie, { method: 'POST', url: '/api/webhooks', payload: { url, events: ['newVersion'] } });
const edit = (t: TestApp, cookie: string, id: number, url: string) =>
  request(t.app, cookie, { method: 'PATCH', url: `/api/webhooks/${id}`, payload: { url } });
const endpoints = (t: TestApp) =>
  t.app.ctx.db.selectFrom('webhookEndpoints').select(['id', 'url']).orderBy('id').execute();

const NEVER: [string, string, string][] = [
  ['http://169.254.169.254/latest/meta-data/', 'linkLocal', '169.254.169.254'],
  ['http://[fe80::1]/hook', 'linkLocal', 'fe80::1'],
  ['http://0.0.0.0:8080/hook', 'unspecified', '0.0.0.0'],
  ['http://255.255.255.255/hook', 'broadcast', '255.255.255.255'],
  ['http://224.0.0.1/hook', 'multicast', '224.0.0.1'],
  ['http://[ff02::1]/hook', 'multicast', 'ff02::1'],
  ['http://240.0.0.1/hook', 'reserved', '240.0.0.1'],
  ['http://[::7f00:1]/hook', 'reserved', '::7f00:1'],
  ['http://168.63.129.16/machine', 'cloudMetadata', '168.63.129.16'],
  ['http://100.100.100.200/latest/meta-data/', 'cloudMetadata', '100.100.100.200'],
  ['http://[fd00:ec2::254]/latest/meta-data/', 'cloudMetadata', 'fd00:ec2::254'],
  // the URL parser reads these as 169.254.169.254, as a delivery would
  ['http://2852039166/latest/meta-data/', 'linkLocal', '169.254.169.254'],
  ['http://[::ffff:169.254.169.254]/', 'linkLocal', '::ffff:a9fe:a9fe'],
];
const PRIVATE: [string, string][] = [
  ['http://127.0.0.1:9000/hook', '127.0.0.1'],
  ['http://10.1.2.3/hook', '10.1.2.3'],
  ['http://[::1]:9000/hook', '::1'],
  ['http://[fd12:3456::1]/hook', 'fd12:3456::1'],
];

function expectRefusal(response: Awaited<ReturnType<typeof create>>, kind: string, address: string) {
  expect(response.statusCode).toBe(400);
  const { error } = response.json();
  expect(error.code).toBe('validation_error');
  expect(error.details).toEqual([{ path: 'url', message: `webhooks.errors.address.${kind}`, values: { address } }]);
  const text = (en.webhooks.errors.address as Record<string, string>)[kind].replace('{{address}}', address);
  expect(error.message).toBe(`url: ${text}`);
}

describe('a webhook URL whose host is an address', () => {
  it('is refused at creation when no delivery may ever reach it, whatever the private rule', async () => {
    for (const t of [open, allowing]) {
      const cookie = t === open ? cookies.open : cookies.allowing;
      for (const [url, kind, address] of NEVER) expectRefusal(await create(t, cookie, url), kind, address);
      expect(await endpoints(t)).toEqual([]);
    }
  });

  it('follows WEBHOOKS_ALLOW_PRIVATE for private and loopback addresses', async () => {
    for (const [url, address] of PRIVATE) {
      expectRefusal(await create(open, cookies.open, url), 'private', address);
      expect((await create(allowing, cookies.allowing, url)).statusCode, url).toBe(201);
    }
    expect(await endpoints(open)).toEqual([]);
    expect((await endpoints(allowing)).map((e) => e.url)).toEqual(PRIVATE.map(([url]) => url));
  });

  it('accepts public addresses and names, whatever they resolve to later', async () => {
    for (const url of [
      'https://93.184.215.14/hook',
      'https://[2606:4700:4700::1111]/hook',
      'http://localhost:9/hook',
    ]) {
      expect((await create(open, cookies.open, url)).statusCode, url).toBe(201);
    }
  });

  it('is refused on edit too, leaving the endpoint as it was and no audit entry', async () => {
    const created = await create(open, cookies.open, 'https://hooks.example.com/edit-me');
    const { id } = created.json();
    const audits = () =>
      open.app.ctx.db.selectFrom('auditLog').select('id').where('action', '=', 'updateWebhook').execute();
    const before = (await audits()).length;
    expectRefusal(await edit(open, cookies.open, id, 'http://169.254.169.254/'), 'linkLocal', '169.254.169.254');
    expectRefusal(await edit(open, cookies.open, id, 'http://192.168.1.20/hook'), 'private', '192.168.1.20');
    const row = (await endpoints(open)).find((e) => e.id === id);
    expect(row?.url).toBe('https://hooks.example.com/edit-me');
    expect(await audits()).toHaveLength(before);
    // the private rule allows it on the other portal
    const other = (await create(allowing, cookies.allowing, 'https://hooks.example.com/edit-me')).json();
    expect((await edit(allowing, cookies.allowing, other.id, 'http://192.168.1.20/hook')).statusCode).toBe(200);
    expectRefusal(
      await edit(allowing, cookies.allowing, other.id, 'http://[fd00:ec2::254]/'),
      'cloudMetadata',
      'fd00:ec2::254',
    );
  });
});
