import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, login, signedIn } from '../test/factories';
import { createTestApp, request, type TestApp } from '../test/harness';
import { access } from './access';
import { COMPRESS_IN_ONE_CALL_BYTES, COMPRESS_THRESHOLD_BYTES } from './compression';

// A built client as vite.config.ts writes it: each text file with its brotli and gzip twins, a
// source map next to the script, the build manifest, and a small file left uncompressed.
const SCRIPT = `console.log(${JSON.stringify('portal '.repeat(500))});\n`;
const INDEX = `<!doctype html><html lang="en"><head><title>Portal</title></head><div id="root">${'<!-- page -->'.repeat(200)}</div>`;
const PUBLIC = `<!doctype html><html lang="en"><div id="root">${'<!-- sign-in page -->'.repeat(200)}</div>`;
const LOGIN_EN = `<!doctype html><html lang="en"><div id="root" data-prerendered>${'<!-- the login form -->'.repeat(200)}</div>`;

function clientBuild() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-static-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.mkdirSync(path.join(dir, '.vite'));
  fs.mkdirSync(path.join(dir, 'prerendered', 'en'), { recursive: true });
  const write = (file: string, content: string | Buffer) => fs.writeFileSync(path.join(dir, file), content);
  for (const [file, content] of [
    ['index.html', INDEX],
    ['public.html', PUBLIC],
    ['prerendered/en/login.html', LOGIN_EN],
    ['assets/index-abc123.js', SCRIPT],
  ]) {
    write(file, content);
    write(`${file}.br`, zlib.brotliCompressSync(content));
    write(`${file}.gz`, zlib.gzipSync(content));
  }
  write('assets/index-abc123.js.map', '{"version":3,"sources":["client/main.tsx"]}');
  write('assets/tiny-abc123.js', 'export{}');
  write('.vite/manifest.json', '{}');
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

const signedOut = (html: string) => html.replace('<html', '<html data-signed-out');

const LARGE_ROWS = Array.from({ length: 200 }, (_, id) => ({ id, email: `user${id}@example.com`, name: 'A user' }));

describe('static files and compression', () => {
  let t: TestApp;
  const client = clientBuild();

  beforeAll(async () => {
    t = await createTestApp(
      { STATIC_DIR: client.dir },
      {},
      {
        testRoutes: async (api) => {
          api.get('/test/large', { config: { access: access.public } }, async () => ({ items: LARGE_ROWS }));
        },
      },
    );
  });
  afterAll(async () => {
    await t.close();
    client.remove();
  });

  it('sends the brotli copy of a script to a browser that accepts it, cached for good', async () => {
    const response = await t.app.inject({
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.brotliDecompressSync(response.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends the gzip copy where brotli is not accepted, and the file itself where nothing is', async () => {
    const gzip = await t.app.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.vary).toMatch(/accept-encoding/i);
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(SCRIPT);

    const plain = await t.app.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);

    // A file too small to have compressed copies is sent as it is, whatever the browser accepts.
    const tiny = await t.app.inject({ url: '/assets/tiny-abc123.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(tiny.statusCode).toBe(200);
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body).toBe('export{}');
  });

  it('sends index.html compressed and never cached without asking again, marked signed out without a session', async () => {
    for (const url of ['/', '/en/users', '/fr/accounts/3', '/en/login/more', '/login']) {
      for (const cookie of [undefined, 'portal_session=ended']) {
        const page = await t.app.inject({ url, headers: { 'accept-encoding': 'br', ...(cookie ? { cookie } : {}) } });
        expect(page.statusCode, url).toBe(200);
        expect(page.headers['content-encoding'], url).toBe('br');
        expect(page.headers['content-type'], url).toMatch(/text\/html/);
        expect(page.headers['cache-control'], url).toBe('no-cache');
        expect(page.headers.vary, url).toMatch(/cookie/i);
        expect(zlib.brotliDecompressSync(page.rawPayload).toString(), url).toBe(signedOut(INDEX));
      }
    }
  });

  it("sends the signed-in user's profile with index.html, as GET /api/auth/me answers it, never to be shared", async () => {
    const user = await signedIn(t.app, 'admin');
    const me = await request(t.app, user.cookie, { url: '/api/auth/me' });
    expect(me.statusCode).toBe(200);
    const page = await t.app.inject({ url: '/en/users', headers: { 'accept-encoding': 'gzip', cookie: user.cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(page.headers['cache-control']).toBe('private, no-cache');
    expect(page.headers.vary).toMatch(/cookie/i);
    const html = zlib.gunzipSync(page.rawPayload).toString();
    const sent = /<script type="application\/json" id="portal-profile">(.*?)<\/script>\s*<\/head>/.exec(html);
    expect(sent).not.toBeNull();
    expect(JSON.parse(sent![1])).toEqual(me.json());
    expect(html.replace(sent![0], '</head>')).toBe(INDEX);
  });

  it('escapes what could close the element the profile is sent in', async () => {
    const user = await createUser(t.app.ctx.db, { fullName: '</script><script>alert(1)</script>' });
    const cookie = await login(t.app, user.email);
    const page = await t.app.inject({ url: '/en/settings', headers: { cookie } });
    expect(page.body).not.toContain('</script><script>');
    const sent = /id="portal-profile">(.*?)<\/script>/.exec(page.body);
    expect((JSON.parse(sent![1]) as { fullName: string }).fullName).toBe('</script><script>alert(1)</script>');
  });

  it('answers the sign-in pages with their own light page, compressed and never cached', async () => {
    const { cookie } = await signedIn(t.app, 'admin');
    const headers = { 'accept-encoding': 'br', cookie };
    for (const url of ['/fr/login?redirect=%2Fusers', '/en/password-lost', '/fr/reset-password/abc']) {
      const page = await t.app.inject({ url, headers });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-encoding'], url).toBe('br');
      expect(page.headers['cache-control'], url).toBe('no-cache');
      expect(zlib.brotliDecompressSync(page.rawPayload).toString(), url).toBe(PUBLIC);
    }
    // The build's pre-rendered page for that address and language, when there is one.
    for (const url of ['/en/login', '/en/login/', '/en/login?redirect=%2Fusers']) {
      const page = await t.app.inject({ url, headers });
      expect(page.headers['cache-control'], url).toBe('no-cache');
      expect(page.headers.vary, url).toMatch(/cookie/i);
      expect(zlib.brotliDecompressSync(page.rawPayload).toString(), url).toBe(LOGIN_EN);
    }
  });

  it('marks a sign-in page asked for without a session cookie as signed out, compressed as the browser accepts', async () => {
    const br = await t.app.inject({ url: '/en/login', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/text\/html/);
    expect(br.headers['cache-control']).toBe('no-cache');
    expect(br.headers.vary).toMatch(/cookie/i);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(signedOut(LOGIN_EN));

    const gzip = await t.app.inject({ url: '/fr/password-lost', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(signedOut(PUBLIC));

    const plain = await t.app.inject({ url: '/en/login', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(signedOut(LOGIN_EN));
  });

  it('serves no source map, no compressed twin by its own name and not the build manifest', async () => {
    for (const url of [
      '/assets/index-abc123.js.map',
      '/assets/index-abc123.js.br',
      '/assets/index-abc123.js.gz',
      '/.vite/manifest.json',
    ]) {
      const response = await t.app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } });
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).not.toContain('sources');
    }
  });

  it('compresses a large API answer for a client that accepts it, and not a small one', async () => {
    const large = await t.app.inject({ url: '/api/test/large', headers: { 'accept-encoding': 'br, gzip' } });
    expect(large.statusCode).toBe(200);
    expect(large.headers['content-encoding']).toBe('br');
    expect(large.headers.vary).toMatch(/accept-encoding/i);
    const body = zlib.brotliDecompressSync(large.rawPayload);
    expect(body.length).toBeGreaterThan(COMPRESS_THRESHOLD_BYTES);
    expect(large.rawPayload.length).toBeLessThan(body.length / 4);
    // Above the size @fastify/compress would stream on two cores, still compressed in one call: it
    // has a length instead of going chunked.
    expect(body.length).toBeGreaterThan(8 * 1024);
    expect(body.length).toBeLessThan(COMPRESS_IN_ONE_CALL_BYTES);
    expect(large.headers['content-length']).toBe(String(large.rawPayload.length));
    expect(large.headers['transfer-encoding']).toBeUndefined();
    expect(JSON.parse(body.toString())).toEqual({ items: LARGE_ROWS });

    const gzip = await t.app.inject({ url: '/api/test/large', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gzip.rawPayload).toString())).toEqual({ items: LARGE_ROWS });

    const plain = await t.app.inject({ url: '/api/test/large' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json()).toEqual({ items: LARGE_ROWS });

    const small = await t.app.inject({ url: '/api/health', headers: { 'accept-encoding': 'br, gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual({ status: 'ok', database: 'ok' });
  });

  it('takes a request body as sent: a gzip-encoded body is not unpacked, and is refused without a server error', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: zlib.gzipSync(JSON.stringify({ email: 'nobody@example.com', password: 'Wrong-Password-1!' })),
    });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(response.statusCode).not.toBe(401);
  });
});
