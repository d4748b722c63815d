import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE_ERRORS } from '../../../common/api/catalogue';
import { ERROR_CODES } from '../../../common/api/errors';
import { utcToday } from '../../../common/licence-status';
import type { AccessLevel, VersionType } from '../../../common/domain';
import {
  addMembership,
  createCustomer,
  createLicence,
  createProduct,
  createUser,
  createVersion,
  signedIn,
} from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';
import { explain } from '../../test/plans';
import { NEW_VERSION_MESSAGE, PUBLISHED_LOCKED, VERSION_EXISTS } from './service';

let t: TestApp;
let admin: string;
let manager: string;
let support: string;

beforeAll(async () => {
  t = await createTestApp();
  const { db } = t.app.ctx;
  await createProduct(db, { key: 'server', name: 'Graph Server' });
  admin = (await signedIn(t.app, 'admin')).cookie;
  manager = (await signedIn(t.app, 'productManager')).cookie;
  support = (await signedIn(t.app, 'supportEngineer')).cookie;
});
afterAll(async () => t?.close());

const call = (method: 'GET' | 'POST' | 'PATCH', cookie: string | null, url: string, payload?: unknown) =>
  request(t.app, cookie, { method, url, ...(payload !== undefined ? { payload: payload as object } : {}) });
const create = (productKey: string, body: object, cookie = manager) =>
  call('POST', cookie, `/api/products/${productKey}/versions`, body);
const patch = (id: number, body: object, cookie = manager) => call('PATCH', cookie, `/api/versions/${id}`, body);
const semVersOf = async (url: string, cookie = manager) => {
  const response = await call('GET', cookie, url);
  expect(response.statusCode).toBe(200);
  return response.json().data.map((v: { semVer: string }) => v.semVer);
};
const draft = (semVer: string) => ({ title: `Release ${semVer}`, semVer, description: 'Notes' });

describe('POST /api/products/{key}/versions', () => {
  it('adds an unpublished version (type stable by default) with its description rendered', async () => {
    const response = await create('server', {
      title: 'First',
      semVer: '1.0.0',
      description: '- one\n- [docs](https://example.com)\n\n<script>alert(1)</script>',
    });
    expect(response.statusCode).toBe(201);
    const version = response.json();
    expect(version).toMatchObject({
      productKey: 'server',
      productName: 'Graph Server',
      title: 'First',
      type: 'stable',
      semVer: '1.0.0',
      published: false,
      releaseDate: null,
      artifacts: [],
      can: { edit: true, publish: true, upload: true, deleteArtifacts: true },
    });
    expect(version.descriptionHtml).toContain('<li>one</li>');
    expect(version.descriptionHtml).toContain('href="https://example.com"');
    expect(version.descriptionHtml).not.toContain('<script>');
    expect((await call('GET', admin, `/api/versions/${version.id}`)).json()).toEqual(version);
  });

  it('is for product managers and admins; 404 for an unknown product', async () => {
    expect((await create('server', draft('1.0.1'), support)).statusCode).toBe(403);
    expect((await create('server', draft('1.0.1'), admin)).statusCode).toBe(201);
    expect((await create('no-such-product', draft('1.0.0'))).statusCode).toBe(404);
  });

  it('requires a valid semantic version, title and description', async () => {
    for (const semVer of ['1.0', 'v1.0.0', '01.0.0', '1.0.0-', '1.0.0-01', '99999999999999999999.0.0']) {
      const response = await create('server', draft(semVer));
      expect(response.statusCode, semVer).toBe(400);
      expect(response.json().error.details[0]).toEqual({ path: 'semVer', message: CATALOGUE_ERRORS.semVer });
    }
    expect((await create('server', { ...draft('5.0.0'), title: '' })).statusCode).toBe(400);
    expect((await create('server', { ...draft('5.0.0'), description: ' ' })).statusCode).toBe(400);
    expect((await create('server', { ...draft('5.0.0'), published: true })).statusCode).toBe(400);
  });

  it('refuses a semVer the product already has (409 on semVer), also when two requests race', async () => {
    const taken = await create('server', draft('1.0.0'));
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toMatchObject({ code: ERROR_CODES.versionExists, message: VERSION_EXISTS });
    expect(taken.json().error.details[0].path).toBe('semVer');
    const statuses = (await Promise.all([create('server', draft('7.7.7')), create('server', draft('7.7.7'))])).map(
      (r) => r.statusCode,
    );
    expect(statuses.sort()).toEqual([201, 409]);
  });
});

describe('the order of versions', () => {
  it('is semantic, newest first, in SQL: numbers numerically, pre-releases below their release', async () => {
    const { db } = t.app.ctx;
    await createProduct(db, { key: 'ordered', name: 'Ordered' });
    // semver.org's own example of rule 11, plus 1.9.0/1.10.0, inserted shuffled
    const ascending = [
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-alpha.beta',
      '1.0.0-beta',
      '1.0.0-beta.2',
      '1.0.0-beta.11',
      '1.0.0-rc.1',
      '1.0.0',
      '1.9.0',
      '1.10.0',
      '2.0.0-rc.1+build.5',
      '2.0.0+build.1',
    ];
    const shuffled = [7, 2, 10, 0, 5, 11, 3, 9, 1, 8, 6, 4].map((i) => ascending[i]);
    for (const semVer of shuffled) await createVersion(db, 'ordered', { semVer });
    expect(await semVersOf('/api/products/ordered/versions?pageLength=20')).toEqual([...ascending].reverse());
  });

  it('pages by 10 by default, with the total', async () => {
    const first = (await call('GET', manager, '/api/products/ordered/versions')).json();
    expect(first.data).toHaveLength(10);
    expect(first).toMatchObject({ offset: 0, total: 12, totalCapped: false });
    expect(await semVersOf('/api/products/ordered/versions?pageOffset=10')).toEqual(['1.0.0-alpha.1', '1.0.0-alpha']);
  });

  it('follows a semVer changed before publication', async () => {
    const { db } = t.app.ctx;
    await createProduct(db, { key: 'moved', name: 'Moved' });
    await createVersion(db, 'moved', { semVer: '1.5.0' });
    const { id } = await createVersion(db, 'moved', { semVer: '1.0.0', published: false });
    expect(await semVersOf('/api/products/moved/versions')).toEqual(['1.5.0', '1.0.0']);
    expect((await patch(id, { semVer: '2.0.0-beta.1' })).statusCode).toBe(200);
    expect(await semVersOf('/api/products/moved/versions')).toEqual(['2.0.0-beta.1', '1.5.0']);
  });
});

describe('PATCH /api/versions/{id}', () => {
  it('changes every field of an unpublished version, then publishes it for good, dated today', async () => {
    const { id } = (await create('server', draft('3.0.0'))).json();
    const edited = await patch(id, { title: 'Three', semVer: '3.0.1', type: 'beta', description: '**bold**' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ title: 'Three', semVer: '3.0.1', type: 'beta', published: false });
    expect(edited.json().descriptionHtml).toContain('<strong>bold</strong>');
    const published = await patch(id, { published: true });
    expect(published.json()).toMatchObject({ published: true, releaseDate: utcToday() });
    // published: still edited (description and type), no longer published again nor its files changed
    expect(published.json().can).toEqual({ edit: true, publish: false, upload: false, deleteArtifacts: false });
    expect((await patch(id, { published: false })).statusCode).toBe(400);

    for (const body of [{ title: 'Other' }, { semVer: '3.0.2' }]) {
      const refused = await patch(id, body);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error).toMatchObject({ code: ERROR_CODES.versionPublished, message: PUBLISHED_LOCKED });
    }
    const described = await patch(id, { description: 'Changed', type: 'maintenance', published: true });
    expect(described.json()).toMatchObject({
      title: 'Three',
      semVer: '3.0.1',
      description: 'Changed',
      type: 'maintenance',
      published: true,
      releaseDate: utcToday(),
    });
  });

  it('refuses a semVer another version of the product holds (409), 404 for an unknown version', async () => {
    const { id } = (await create('server', draft('4.0.0'))).json();
    expect((await patch(id, { semVer: '1.0.0' })).statusCode).toBe(409);
    expect((await patch(999_999, { description: 'x' })).statusCode).toBe(404);
    expect((await call('GET', manager, '/api/versions/999999')).statusCode).toBe(404);
    expect((await patch(id, { description: 'x' }, support)).statusCode).toBe(403);
  });
});

describe('a customer view of the versions', () => {
  let customerId: number;
  let owner: string;
  let endUser: string;
  const types: VersionType[] = ['alpha', 'beta', 'stable', 'maintenance', 'eol'];

  beforeAll(async () => {
    const { db } = t.app.ctx;
    customerId = (await createCustomer(db, { name: 'Viewer' })).id;
    owner = (await signedIn(t.app, 'client', { id: customerId, role: 'businessOwner' })).cookie;
    endUser = (await signedIn(t.app, 'client', { id: customerId, role: 'endUser' })).cookie;
    for (const [level, key] of [
      ['stable', 'gated-stable'],
      ['beta', 'gated-beta'],
      ['alpha', 'gated-alpha'],
    ] as [AccessLevel, string][]) {
      await createProduct(db, { key, name: key });
      await createLicence(db, customerId, key, { accessLevel: level });
      for (const [i, type] of types.entries()) await createVersion(db, key, { semVer: `1.${i}.0`, type });
      await createVersion(db, key, { semVer: '9.0.0', type: 'stable', published: false });
    }
    await createProduct(db, { key: 'unlicensed', name: 'Unlicensed' });
    await createVersion(db, 'unlicensed', { semVer: '1.0.0' });
  });

  const typesSeen = async (key: string, cookie: string) => {
    const response = await call('GET', cookie, `/api/products/${key}/versions?customerId=${customerId}`);
    expect(response.statusCode).toBe(200);
    return response.json().data.map((v: { type: string }) => v.type);
  };

  it('shows the published versions the access level allows, never an unpublished one', async () => {
    expect(await typesSeen('gated-stable', owner)).toEqual(['eol', 'maintenance', 'stable']);
    expect(await typesSeen('gated-beta', owner)).toEqual(['eol', 'maintenance', 'stable', 'beta']);
    expect(await typesSeen('gated-alpha', owner)).toEqual(['eol', 'maintenance', 'stable', 'beta', 'alpha']);
    // staff see the customer's view too when they name it
    expect(await typesSeen('gated-stable', admin)).toEqual(['eol', 'maintenance', 'stable']);
    const asOwner = await call('GET', owner, `/api/products/gated-alpha/versions?customerId=${customerId}`);
    const nothing = { edit: false, publish: false, upload: false, deleteArtifacts: false };
    expect(asOwner.json().data.map((v: { can: unknown }) => v.can)).toEqual(asOwner.json().data.map(() => nothing));
    expect(await semVersOf('/api/products/gated-stable/versions')).toContain('9.0.0');
  });

  it('is empty without a licence of the product; refused to a role that sees no licences', async () => {
    const response = await call('GET', owner, `/api/products/unlicensed/versions?customerId=${customerId}`);
    expect(response.json()).toEqual({ data: [], offset: 0, total: 0, totalCapped: false });
    expect((await call('GET', endUser, `/api/products/gated-alpha/versions?customerId=${customerId}`)).statusCode).toBe(
      403,
    );
    expect((await call('GET', owner, '/api/products/gated-alpha/versions')).statusCode).toBe(403);
    expect((await call('GET', owner, `/api/products/nothing/versions?customerId=${customerId}`)).statusCode).toBe(404);
  });
});

describe('the latest version and what changed since a version', () => {
  const customers: Partial<Record<AccessLevel, { id: number; cookie: string }>> = {};
  const ids = new Map<string, number>();

  beforeAll(async () => {
    const { db } = t.app.ctx;
    await createProduct(db, { key: 'releases', name: 'Releases' });
    for (const [semVer, type, published] of [
      ['1.0.0', 'stable', true],
      ['1.1.0', 'maintenance', true],
      ['1.2.0-beta.1', 'beta', true],
      ['2.0.0-alpha.1', 'alpha', true],
      ['3.0.0', 'stable', false],
    ] as [string, VersionType, boolean][]) {
      ids.set(semVer, (await createVersion(db, 'releases', { semVer, type, published })).id);
    }
    for (const level of ['stable', 'beta', 'alpha'] as AccessLevel[]) {
      const { id } = await createCustomer(db, { name: `Releases ${level}` });
      await createLicence(db, id, 'releases', { accessLevel: level });
      customers[level] = { id, cookie: (await signedIn(t.app, 'client', { id, role: 'technicalContact' })).cookie };
    }
  });

  const listed = async (level: AccessLevel, query = '') => {
    const { id, cookie } = customers[level]!;
    const response = await call('GET', cookie, `/api/products/releases/versions?customerId=${id}${query}`);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    return {
      total: body.total,
      rows: body.data.map((v: { semVer: string; latestFor: AccessLevel[] }) => [v.semVer, v.latestFor]),
    };
  };

  it("marks the newest published version the customer's licence allows as latest for its level", async () => {
    expect((await listed('stable')).rows).toEqual([
      ['1.1.0', ['stable']],
      ['1.0.0', []],
    ]);
    expect((await listed('beta')).rows).toEqual([
      ['1.2.0-beta.1', ['beta']],
      ['1.1.0', []],
      ['1.0.0', []],
    ]);
    expect((await listed('alpha')).rows.slice(0, 2)).toEqual([
      ['2.0.0-alpha.1', ['alpha']],
      ['1.2.0-beta.1', []],
    ]);
    // a later page holds no latest
    expect((await listed('beta', '&pageOffset=1&pageLength=1')).rows).toEqual([['1.1.0', []]]);
  });

  it('tells staff, for each version, the access levels it is the newest published one of', async () => {
    const response = await call('GET', manager, '/api/products/releases/versions');
    expect(response.json().data.map((v: { semVer: string; latestFor: string[] }) => [v.semVer, v.latestFor])).toEqual([
      ['3.0.0', []],
      ['2.0.0-alpha.1', ['alpha']],
      ['1.2.0-beta.1', ['beta']],
      ['1.1.0', ['stable']],
      ['1.0.0', []],
    ]);
    expect((await call('GET', admin, `/api/versions/${ids.get('1.1.0')}`)).json().latestFor).toEqual(['stable']);
    expect((await call('GET', admin, `/api/versions/${ids.get('3.0.0')}`)).json().latestFor).toEqual([]);
    // the newest of every level at once
    const gated = await call('GET', manager, '/api/products/gated-stable/versions');
    const published = gated.json().data.filter((v: { published: boolean }) => v.published);
    expect(published[0]).toMatchObject({ semVer: '1.4.0', latestFor: ['alpha', 'beta', 'stable'] });
    expect(published.slice(1).flatMap((v: { latestFor: string[] }) => v.latestFor)).toEqual([]);
  });

  it('lists only the versions newer than `since` that the licence allows, newest first', async () => {
    expect(await listed('beta', '&since=1.0.0')).toEqual({
      total: 2,
      rows: [
        ['1.2.0-beta.1', ['beta']],
        ['1.1.0', []],
      ],
    });
    expect(await listed('stable', '&since=1.0.0')).toEqual({ total: 1, rows: [['1.1.0', ['stable']]] });
    // pre-releases order by their identifiers: beta.1 comes after alpha, before the release
    expect((await listed('alpha', '&since=1.2.0-alpha')).rows.map((r: string[]) => r[0])).toEqual([
      '2.0.0-alpha.1',
      '1.2.0-beta.1',
    ]);
    expect((await listed('alpha', '&since=1.2.0')).rows.map((r: string[]) => r[0])).toEqual(['2.0.0-alpha.1']);
    expect(await listed('alpha', '&since=2.0.0-alpha.1')).toEqual({ total: 0, rows: [] });
    expect((await listed('stable', '&since=0.0.1')).total).toBe(2);
    // a page of what changed
    expect(await listed('beta', '&since=1.0.0&pageOffset=1&pageLength=1')).toEqual({ total: 2, rows: [['1.1.0', []]] });
    // staff's list too
    expect(await semVersOf('/api/products/releases/versions?since=1.2.0-beta.1')).toEqual(['3.0.0', '2.0.0-alpha.1']);
  });

  it('refuses a `since` that is not a semantic version (400 with the field)', async () => {
    const { id, cookie } = customers.stable!;
    for (const since of ['latest', 'v1.0.0', '1.0', '99999999999999999999.0.0', 'x'.repeat(101)]) {
      const response = await call('GET', cookie, `/api/products/releases/versions?customerId=${id}&since=${since}`);
      expect(response.statusCode, since).toBe(400);
      expect(response.json().error.code).toBe(ERROR_CODES.validation);
    }
  });
});

describe('publishing notifies', () => {
  it('members who asked for new versions whose licence allows the type, once each', async () => {
    const { db } = t.app.ctx;
    await createProduct(db, { key: 'notified', name: 'Notified Product' });
    const stableCustomer = await createCustomer(db, { name: 'Stable Customer' });
    const betaCustomer = await createCustomer(db, { name: 'Beta Customer' });
    const endedCustomer = await createCustomer(db, { name: 'Ended Customer' });
    await createLicence(db, stableCustomer.id, 'notified', { accessLevel: 'stable' });
    await createLicence(db, betaCustomer.id, 'notified', { accessLevel: 'beta' });
    await createLicence(db, endedCustomer.id, 'notified', { accessLevel: 'alpha', endDate: '2020-01-01' });
    const member = async (customer: number, notify = true) => {
      const user = await createUser(db, { type: 'client' });
      const { id } = await addMembership(db, user.id, customer, 'technicalContact');
      if (!notify) await db.updateTable('memberships').set({ notifyNewVersion: 0 }).where('id', '=', id).execute();
      return user.id;
    };
    const stableUser = await member(stableCustomer.id);
    const betaUser = await member(betaCustomer.id);
    const quietUser = await member(betaCustomer.id, false);
    const endedUser = await member(endedCustomer.id);
    const notified = async () =>
      (
        await db
          .selectFrom('notifications')
          .select(['userId', 'messageKey', 'params'])
          .where('userId', 'in', [stableUser, betaUser, quietUser, endedUser])
          .orderBy('id')
          .execute()
      ).map((n) => ({ ...n, params: JSON.parse(n.params) }));

    const beta = (await create('notified', { ...draft('2.0.0-beta.1'), type: 'beta' })).json();
    expect(await notified()).toEqual([]);
    await patch(beta.id, { published: true });
    await t.app.ctx.jobs.drain();
    expect(await notified()).toEqual([
      {
        userId: betaUser,
        messageKey: NEW_VERSION_MESSAGE,
        params: {
          customerId: betaCustomer.id,
          productKey: 'notified',
          productName: 'Notified Product',
          semVer: '2.0.0-beta.1',
        },
      },
    ]);
    const stable = (await create('notified', draft('2.0.0'))).json();
    await patch(stable.id, { published: true });
    await patch(stable.id, { published: true, description: 'again' });
    await t.app.ctx.jobs.drain();
    expect((await notified()).map((n) => n.userId)).toEqual([betaUser, stableUser, betaUser]);
  });
});

describe('the versions query', () => {
  it('reads a product page from the order index, without sorting', async () => {
    const { db } = t.app.ctx;
    const compiled = db
      .selectFrom('versions')
      .select('id')
      .where('productKey', '=', 'ordered')
      .orderBy('major', 'desc')
      .orderBy('minor', 'desc')
      .orderBy('patch', 'desc')
      .orderBy('preReleaseKey', 'desc')
      .orderBy('id', 'desc')
      .limit(10)
      .compile();
    const plan = await explain(db, compiled);
    expect(plan).toContain('versions_product_key_order_idx');
    expect(plan).not.toMatch(/TEMP B-TREE|Sort/);
  });
});
