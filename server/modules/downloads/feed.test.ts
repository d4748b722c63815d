import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretDownloadPath, secretSumsPath, versionFeedPath } from '../../../common/api/catalogue';
import type { AccessLevel } from '../../../common/domain';
import { addDays, utcToday } from '../../../common/licence-status';
import { renderMarkdown } from '../../markdown';
import { findLicence } from '../licences/repo';
import { xmlText } from './feed';
import { createCustomer, createLicence, createProduct, createVersionWithFiles, signedIn } from '../../test/factories';
import { BASE_URL, createTestApp, request, type TestApp } from '../../test/harness';

/**
 * Verifiable downloads and the feed of new versions (docs/decisions/080): the Repr-Digest of every
 * download answer, a version's SHA256SUMS checked by `sha256sum -c` against the bytes served, and the
 * Atom feed read by an XML parser and held to the versions each access level allows.
 */
let t: TestApp;
const PRODUCT = 'atlas';
/** a name and notes that need escaping, and characters XML cannot carry at all */
const PRODUCT_NAME = 'Atlas <Maps> & "Routes"';
const NOTES = '## Fixed\n\n- `a < b && c > d` no longer fails\n- "quotes" & <b>tags</b>\u0001 dropped';
const secrets = {} as Record<AccessLevel, string>;
const licenceIds = {} as Record<AccessLevel, number>;
const files = {
  stableLinux: crypto.randomBytes(3000),
  stableWindows: crypto.randomBytes(1500),
  maintenance: crypto.randomBytes(2500),
  beta: crypto.randomBytes(2000),
  alpha: crypto.randomBytes(1000),
};

/** semVer, type, release date, files: newest release first is alpha, 1.1.0, beta, 1.0.0 */
beforeAll(async () => {
  t = await createTestApp();
  const { ctx } = t.app;
  await createProduct(ctx.db, { key: PRODUCT, name: PRODUCT_NAME });
  await createProduct(ctx.db, { key: 'other', name: 'Other' });
  for (const level of ['stable', 'beta', 'alpha'] as const) {
    const customer = await createCustomer(ctx.db);
    const licence = await createLicence(ctx.db, customer.id, PRODUCT, { accessLevel: level });
    licenceIds[level] = licence.id;
    secrets[level] = (await findLicence(ctx.db, licence.id))!.downloadSecret;
  }
  const versions = [
    {
      semVer: '1.0.0',
      type: 'stable',
      day: '2026-01-10',
      files: {
        linux: { bytes: files.stableLinux, fileName: 'atlas-1.0.0.tar.gz' },
        windows: { bytes: files.stableWindows, fileName: 'Atlas Setup 1.0.0.zip' },
      },
    },
    {
      semVer: '1.1.0',
      type: 'maintenance',
      day: '2026-03-01',
      files: { linux: { bytes: files.maintenance, fileName: 'atlas-1.1.0.tar.gz' } },
    },
    {
      semVer: '2.0.0-beta.1',
      type: 'beta',
      day: '2026-02-01',
      files: { linux: { bytes: files.beta, fileName: 'atlas-2.0.0-beta.1.tar.gz' } },
    },
    {
      semVer: '2.0.0-alpha.3',
      type: 'alpha',
      day: '2026-04-01',
      files: { docker: { bytes: files.alpha, fileName: 'atlas-2.0.0-alpha.3.tar' } },
    },
  ] as const;
  for (const version of versions) {
    const { id } = await createVersionWithFiles(ctx, PRODUCT, {
      semVer: version.semVer,
      type: version.type,
      files: version.files,
    });
    await ctx.db
      .updateTable('versions')
      .set({ releaseDate: version.day, description: NOTES, title: `Release ${version.semVer}` })
      .where('id', '=', id)
      .execute();
  }
  // never in a feed: unpublished, and of another product
  await createVersionWithFiles(ctx, PRODUCT, {
    semVer: '3.0.0',
    published: false,
    files: { linux: { bytes: files.alpha } },
  });
  await createVersionWithFiles(ctx, 'other', { semVer: '9.0.0', files: { linux: { bytes: files.alpha } } });
});
afterAll(async () => t?.close());

const get = (url: string, headers: Record<string, string> = {}) =>
  request(t.app, null, { method: 'GET', url, headers });

/** An absolute link of the feed as the path the test app answers. */
const pathOf = (href: string) => {
  expect(href.startsWith(BASE_URL)).toBe(true);
  return href.slice(BASE_URL.length);
};

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  textNodeName: '#text',
  parseTagValue: false,
  parseAttributeValue: false,
  isArray: (name) => name === 'entry' || name === 'link',
});

interface AtomLink {
  '@rel': string;
  '@href': string;
  '@type'?: string;
  '@title'?: string;
  '@length'?: string;
}
interface AtomEntry {
  id: string;
  title: { '#text': string };
  published: string;
  updated: string;
  category: { '@term': string; '@label': string };
  content: { '@type': string; '#text': string };
  link: AtomLink[];
}
interface AtomFeed {
  '@xmlns': string;
  '@xml:lang': string;
  id: string;
  title: { '#text': string };
  updated: string;
  author: { name: string };
  link: AtomLink[];
  entry?: AtomEntry[];
}

async function feedOf(level: AccessLevel, headers: Record<string, string> = {}) {
  const response = await get(versionFeedPath(PRODUCT, secrets[level]), headers);
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
  const parsed = parser.parse(response.body) as { feed: AtomFeed };
  return { response, feed: parsed.feed, entries: parsed.feed.entry ?? [] };
}

const semVerOf = (entry: AtomEntry) => entry.title['#text'].split(' ').at(-1);

describe('the feed of new versions', () => {
  it('lists what each access level allows, newest release first, read by an XML parser', async () => {
    const expected: Record<AccessLevel, string[]> = {
      stable: ['1.1.0', '1.0.0'],
      beta: ['1.1.0', '2.0.0-beta.1', '1.0.0'],
      alpha: ['2.0.0-alpha.3', '1.1.0', '2.0.0-beta.1', '1.0.0'],
    };
    for (const level of ['stable', 'beta', 'alpha'] as const) {
      const { feed, entries } = await feedOf(level);
      expect(feed['@xmlns']).toBe('http://www.w3.org/2005/Atom');
      expect(entries.map(semVerOf), level).toEqual(expected[level]);
    }
  });

  it('gives each entry its title, dates, notes, type and the links to its files and checksums', async () => {
    const { feed, entries } = await feedOf('alpha');
    expect(feed.title['#text']).toBe(`${PRODUCT_NAME}: new versions`);
    expect(feed.author.name).toBe(PRODUCT_NAME);
    expect(feed.updated).toBe(
      entries
        .map((entry) => entry.updated)
        .sort()
        .at(-1),
    );
    const self = feed.link.find((link) => link['@rel'] === 'self')!;
    expect(pathOf(self['@href'])).toBe(versionFeedPath(PRODUCT, secrets.alpha));

    const stable = entries.find((entry) => semVerOf(entry) === '1.0.0')!;
    expect(stable.title['#text']).toBe(`${PRODUCT_NAME} 1.0.0: Release 1.0.0`);
    expect(stable.published).toBe('2026-01-10T00:00:00Z');
    expect(Date.parse(stable.updated)).toBeGreaterThanOrEqual(Date.parse(stable.published));
    expect(stable.category).toEqual({ '@term': 'stable', '@label': 'Stable' });
    expect(stable.content['@type']).toBe('html');
    // the rendered notes, escaped in the XML and whole again once read (the parser trims the text's
    // ends), without what XML cannot carry
    expect(stable.content['#text']).toBe(renderMarkdown(NOTES.replace('\u0001', '')).trim());
    expect(stable.content['#text']).toContain('<code>a &lt; b &amp;&amp; c &gt; d</code>');

    const enclosures = stable.link.filter((link) => link['@rel'] === 'enclosure');
    expect(enclosures.map((link) => pathOf(link['@href']))).toEqual([
      secretDownloadPath('linux', PRODUCT, '1.0.0', secrets.alpha),
      secretDownloadPath('windows', PRODUCT, '1.0.0', secrets.alpha),
    ]);
    expect(enclosures.map((link) => link['@length'])).toEqual([
      String(files.stableLinux.length),
      String(files.stableWindows.length),
    ]);
    expect(enclosures[1]['@title']).toBe('Atlas Setup 1.0.0.zip (Windows)');
    // each link serves the file it names
    for (const [index, bytes] of [files.stableLinux, files.stableWindows].entries()) {
      const file = await get(pathOf(enclosures[index]['@href']));
      expect(file.statusCode).toBe(200);
      expect(file.rawPayload.equals(bytes)).toBe(true);
    }
    const sums = stable.link.find((link) => link['@rel'] === 'related')!;
    expect(pathOf(sums['@href'])).toBe(secretSumsPath(PRODUCT, '1.0.0', secrets.alpha));
    expect((await get(pathOf(sums['@href']))).statusCode).toBe(200);

    const alpha = entries.find((entry) => semVerOf(entry) === '2.0.0-alpha.3')!;
    expect(alpha.category['@term']).toBe('alpha');
    expect(alpha.link.filter((link) => link['@rel'] === 'enclosure')).toHaveLength(1);
  });

  it('speaks French after Accept-Language', async () => {
    const { response, feed, entries } = await feedOf('stable', { 'accept-language': 'fr-FR,fr;q=0.9,en;q=0.5' });
    expect(feed['@xml:lang']).toBe('fr');
    expect(feed.title['#text']).toBe(`${PRODUCT_NAME}\u00A0: nouvelles versions`);
    expect(entries[0].category['@label']).toBe('Maintenance');
    expect(response.headers.vary).toContain('Accept-Language');
  });

  it('answers 304 to a matching If-None-Match, and a new ETag when a version comes out', async () => {
    const first = await get(versionFeedPath(PRODUCT, secrets.beta));
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const again = await get(versionFeedPath(PRODUCT, secrets.beta));
    expect(again.headers.etag).toBe(etag);

    for (const header of [etag, etag.slice(2), `"other", ${etag}`, '*']) {
      const unchanged = await get(versionFeedPath(PRODUCT, secrets.beta), { 'if-none-match': header });
      expect(unchanged.statusCode, header).toBe(304);
      expect(unchanged.body).toBe('');
      expect(unchanged.headers.etag).toBe(etag);
      expect(unchanged.headers.vary).toBe('Accept-Language, Accept-Encoding');
    }
    expect((await get(versionFeedPath(PRODUCT, secrets.beta), { 'if-none-match': '"stale"' })).statusCode).toBe(200);
    // another licence's feed is another text: its links carry its own secret
    expect((await get(versionFeedPath(PRODUCT, secrets.stable))).headers.etag).not.toBe(etag);

    await createVersionWithFiles(t.app.ctx, PRODUCT, {
      semVer: '1.5.0-beta.1',
      type: 'beta',
      files: { linux: { bytes: files.beta } },
    });
    const changed = await get(versionFeedPath(PRODUCT, secrets.beta), { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    const entries = (parser.parse(changed.body) as { feed: AtomFeed }).feed.entry!;
    expect(entries.map(semVerOf)).toContain('1.5.0-beta.1');
  });

  it('refuses a wrong secret and another product alike (404), and ends with a rotated secret', async () => {
    const tampered = secrets.stable.slice(0, -1) + (secrets.stable.endsWith('A') ? 'B' : 'A');
    const wrong = await get(versionFeedPath(PRODUCT, tampered));
    const otherProduct = await get(versionFeedPath('other', secrets.stable));
    expect(wrong.statusCode).toBe(404);
    expect(otherProduct.statusCode).toBe(404);
    expect(otherProduct.body).toBe(wrong.body);
    expect(wrong.json().error.code).toBeTruthy();

    const { ctx } = t.app;
    const buyer = await createCustomer(ctx.db);
    const licence = await createLicence(ctx.db, buyer.id, 'other');
    const old = (await findLicence(ctx.db, licence.id))!.downloadSecret;
    expect((await get(versionFeedPath('other', old))).statusCode).toBe(200);
    const admin = (await signedIn(t.app, 'admin')).cookie;
    const rotated = await request(t.app, admin, { method: 'POST', url: `/api/licenses/${licence.id}/secret` });
    expect(rotated.statusCode).toBe(200);
    const fresh = rotated.json().downloadSecret as string;
    expect((await get(versionFeedPath('other', old))).statusCode).toBe(404);
    const renewed = await get(versionFeedPath('other', fresh));
    expect(renewed.statusCode).toBe(200);
    expect(renewed.body).not.toContain(old);
    expect(renewed.body).toContain(encodeURIComponent(fresh));
  });

  it('refuses a licence past its grace period with 403 licence_expired, and a malformed address with 400', async () => {
    const { ctx } = t.app;
    const buyer = await createCustomer(ctx.db);
    const licence = await createLicence(ctx.db, buyer.id, PRODUCT, {
      startDate: '2020-01-01',
      endDate: addDays(utcToday(), -31),
    });
    const expired = (await findLicence(ctx.db, licence.id))!.downloadSecret;
    const response = await get(versionFeedPath(PRODUCT, expired));
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('licence_expired');
    expect((await get(`/api/feeds/${PRODUCT}.atom`)).statusCode).toBe(400);
    expect((await get(`/api/feeds/Bad_Key.atom?secret=x`)).statusCode).toBe(400);
  });
});

describe('what XML cannot carry', () => {
  it('is dropped: C0 controls but tab and line ends, U+FFFE, U+FFFF and lone surrogates', () => {
    expect(xmlText('a\u0000b\u0008c\td\ne\rf\u000Bg\u001Fh\uFFFEi\uFFFFj')).toBe('abc\td\ne\rfghij');
    expect(xmlText('x\uD800y\uDC00z')).toBe('xyz');
    expect(xmlText('keep \uD83D\uDE00 and é')).toBe('keep \uD83D\uDE00 and é');
  });
});

describe('SHA256SUMS', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sums-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Downloads every file the sums name into a fresh folder, then runs `sha256sum -c` there. */
  async function checkWithSha256sum(semVer: string, platforms: string[], secret: string) {
    const sums = await get(secretSumsPath(PRODUCT, semVer, secret));
    expect(sums.statusCode).toBe(200);
    expect(sums.headers['content-type']).toBe('text/plain; charset=utf-8');
    const folder = fs.mkdtempSync(path.join(dir, 'v-'));
    const lines = sums.body.split('\n').filter(Boolean);
    expect(lines).toHaveLength(platforms.length);
    for (const platform of platforms) {
      const file = await get(secretDownloadPath(platform, PRODUCT, semVer, secret));
      expect(file.statusCode).toBe(200);
      const name = /filename="([^"]+)"/.exec(file.headers['content-disposition'] as string)![1];
      fs.writeFileSync(path.join(folder, name), file.rawPayload);
    }
    fs.writeFileSync(path.join(folder, 'SHA256SUMS'), sums.body);
    const output = execFileSync('sha256sum', ['-c', '--strict', 'SHA256SUMS'], { cwd: folder, encoding: 'utf8' });
    expect(output.trim().split('\n')).toHaveLength(platforms.length);
    return { body: sums.body, folder };
  }

  it('lists a version’s files in the format sha256sum -c reads, and they match the bytes served', async () => {
    const { body, folder } = await checkWithSha256sum('1.0.0', ['linux', 'windows'], secrets.stable);
    const expected = [
      `${crypto.createHash('sha256').update(files.stableLinux).digest('hex')}  atlas-1.0.0.tar.gz`,
      `${crypto.createHash('sha256').update(files.stableWindows).digest('hex')}  Atlas Setup 1.0.0.zip`,
    ];
    expect(body).toBe(`${expected.join('\n')}\n`);
    // a file changed on the way fails the check
    fs.appendFileSync(path.join(folder, 'atlas-1.0.0.tar.gz'), 'x');
    expect(() => execFileSync('sha256sum', ['-c', 'SHA256SUMS'], { cwd: folder, stdio: 'pipe' })).toThrow();
  });

  it('takes `latest`: the newest version the licence allows that has files', async () => {
    const stable = await get(secretSumsPath(PRODUCT, 'latest', secrets.stable));
    expect(stable.body).toContain('  atlas-1.1.0.tar.gz');
    // in semantic-version order, as the files' `latest`: 2.0.0-beta.1 comes after 2.0.0-alpha.3
    const alpha = await get(secretSumsPath(PRODUCT, 'latest', secrets.alpha));
    expect(alpha.body).toContain('  atlas-2.0.0-beta.1.tar.gz');
    await checkWithSha256sum('2.0.0-alpha.3', ['docker'], secrets.alpha);
  });

  it('follows the rules of the files: 404 for what the licence does not allow, 403 once expired', async () => {
    const tampered = secrets.beta.slice(0, -1) + (secrets.beta.endsWith('A') ? 'B' : 'A');
    const refused = [
      secretSumsPath(PRODUCT, '2.0.0-beta.1', secrets.stable),
      secretSumsPath(PRODUCT, '3.0.0', secrets.alpha),
      secretSumsPath(PRODUCT, '9.9.9', secrets.alpha),
      secretSumsPath('other', '9.0.0', secrets.alpha),
      secretSumsPath(PRODUCT, '1.0.0', tampered),
    ];
    const bodies = new Set<string>();
    for (const url of refused) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      bodies.add(response.body);
    }
    expect(bodies.size).toBe(1);
    expect((await get(secretSumsPath(PRODUCT, '2.0.0-beta.1', secrets.beta))).statusCode).toBe(200);

    const { ctx } = t.app;
    const buyer = await createCustomer(ctx.db);
    const licence = await createLicence(ctx.db, buyer.id, PRODUCT, {
      startDate: '2020-01-01',
      endDate: addDays(utcToday(), -31),
    });
    const expired = (await findLicence(ctx.db, licence.id))!.downloadSecret;
    const response = await get(secretSumsPath(PRODUCT, '1.0.0', expired));
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('licence_expired');
    for (const url of [`/api/get/sums/${PRODUCT}/..%2F1.0.0/?secret=x`, `/api/get/sums/${PRODUCT}/1.0.0/`]) {
      expect((await get(url)).statusCode, url).toBe(400);
    }
  });

  it('counts wrong secrets against the address with those of the files (429)', async () => {
    const limited = await createTestApp({ RATE_LIMIT_DOWNLOAD_SECRET_PER_MINUTE: '2' });
    try {
      const { ctx } = limited.app;
      await createProduct(ctx.db, { key: 'limited' });
      const buyer = await createCustomer(ctx.db);
      const licence = await createLicence(ctx.db, buyer.id, 'limited');
      await createVersionWithFiles(ctx, 'limited', { semVer: '1.0.0', files: { linux: { bytes: files.alpha } } });
      const good = (await findLicence(ctx.db, licence.id))!.downloadSecret;
      const call = (url: string) => limited.app.inject({ method: 'GET', url, remoteAddress: '10.0.0.9' });
      expect((await call(secretSumsPath('limited', 'latest', 'wrong-1'))).statusCode).toBe(404);
      expect((await call(versionFeedPath('limited', 'wrong-2'))).statusCode).toBe(404);
      expect((await call(secretSumsPath('limited', 'latest', 'wrong-3'))).statusCode).toBe(429);
      expect((await call(versionFeedPath('limited', good))).statusCode).toBe(429);
      expect((await call(secretDownloadPath('linux', 'limited', 'latest', good))).statusCode).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe('Repr-Digest', () => {
  const digestOf = (bytes: Buffer) => `sha-256=:${crypto.createHash('sha256').update(bytes).digest('base64')}:`;

  it('names the digest of the whole file on every answer about it: 200, 206, HEAD and 304', async () => {
    const url = secretDownloadPath('linux', PRODUCT, '1.1.0', secrets.stable);
    const whole = await get(url);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['repr-digest']).toBe(digestOf(whole.rawPayload));
    expect(whole.headers['repr-digest']).toBe(digestOf(files.maintenance));

    const part = await get(url, { range: 'bytes=100-199' });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.equals(files.maintenance.subarray(100, 200))).toBe(true);
    expect(part.headers['repr-digest']).toBe(digestOf(files.maintenance));

    const head = await request(t.app, null, { method: 'HEAD', url });
    expect(head.headers['repr-digest']).toBe(digestOf(files.maintenance));
    const unchanged = await get(url, { 'if-none-match': whole.headers.etag as string });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.headers['repr-digest']).toBe(digestOf(files.maintenance));
  });

  it('is the same on the signed-in download route', async () => {
    const { ctx } = t.app;
    const licence = (await findLicence(ctx.db, licenceIds.beta))!;
    const version = await ctx.db
      .selectFrom('versions')
      .select('id')
      .where('productKey', '=', PRODUCT)
      .where('semVer', '=', '2.0.0-beta.1')
      .executeTakeFirstOrThrow();
    const admin = (await signedIn(t.app, 'admin')).cookie;
    const response = await request(t.app, admin, {
      method: 'GET',
      url: `/api/download/linux?customerId=${licence.customerId}&versionId=${version.id}`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['repr-digest']).toBe(digestOf(response.rawPayload));
    expect(response.headers['repr-digest']).toBe(digestOf(files.beta));
  });

  it('goes with the hand-over to nginx (X-Accel-Redirect), for nginx to pass on', async () => {
    const accel = await createTestApp({ DOWNLOAD_ACCEL_REDIRECT: '/protected-artifacts/' });
    try {
      const { ctx } = accel.app;
      await createProduct(ctx.db, { key: 'accel' });
      const buyer = await createCustomer(ctx.db);
      const licence = await createLicence(ctx.db, buyer.id, 'accel');
      await createVersionWithFiles(ctx, 'accel', { semVer: '1.0.0', files: { linux: { bytes: files.beta } } });
      const secret = (await findLicence(ctx.db, licence.id))!.downloadSecret;
      const response = await accel.app.inject({
        method: 'GET',
        url: secretDownloadPath('linux', 'accel', '1.0.0', secret),
      });
      expect(response.headers['x-accel-redirect']).toBeTruthy();
      expect(response.headers['repr-digest']).toBe(digestOf(files.beta));
    } finally {
      await accel.close();
    }
  });
});
