import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../../common/api/errors';
import { LEGAL_DOCUMENTS, LegalDocumentHtml } from '../../../common/api/legal';
import { createTestApp, request, type TestApp } from '../../test/harness';
import { LEGAL_CACHE_CONTROL, LEGAL_FALLBACK_CACHE_CONTROL } from './routes';
import { EXTERNAL_MAX_BYTES } from './service';

/** GET /api/legal/{document}: the shipped documents, and the copies under LEGAL_BASE_URL. */

const read = (t: TestApp, path: string) => request(t.app, null, { method: 'GET', url: `/api/legal/${path}` });

async function document(t: TestApp, path: string) {
  const response = await read(t, path);
  expect(response.statusCode, response.body).toBe(200);
  return { response, body: LegalDocumentHtml.parse(response.json()) };
}

describe('the shipped legal documents', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('renders every document in English and in French, without its leading title', async () => {
    for (const name of LEGAL_DOCUMENTS) {
      for (const locale of ['en', 'fr'] as const) {
        const { body } = await document(t, `${name}?locale=${locale}`);
        expect(body.html.length, `${name} ${locale}`).toBeGreaterThan(500);
        expect(body.html, `${name} ${locale}`).toMatch(/^<(?!h1)/);
        expect(body.html).toContain('<h2>');
        expect(body.fallback).toBe(false);
      }
    }
  });

  it('answers in the asked language, cacheable by anyone', async () => {
    const en = await document(t, 'terms-and-conditions?locale=en');
    expect(en.body.locale).toBe('en');
    expect(en.body.html).toContain('These terms govern your use of the customer portal');
    expect(en.response.headers['cache-control']).toBe(LEGAL_CACHE_CONTROL);
    const fr = await document(t, 'terms-and-conditions?locale=fr');
    expect(fr.body.locale).toBe('fr');
    expect(fr.body.html).toContain('conditions régissent');
    expect((await document(t, 'privacy-policy?locale=fr')).body.html).toContain('données personnelles');
  });

  it('serves the data-processing agreement in English whatever the locale', async () => {
    const fr = await document(t, 'data-processing?locale=fr');
    expect(fr.body.locale).toBe('en');
    expect(fr.body.html).toBe((await document(t, 'data-processing?locale=en')).body.html);
  });

  it('answers 404 for an unknown document, 400 for a missing or unknown locale', async () => {
    for (const path of ['no-such-document?locale=en', '..%2F..%2Fpackage.json?locale=en', 'constructor?locale=en']) {
      const response = await read(t, path);
      expect(response.statusCode, path).toBe(404);
      expect(response.json().error.code).toBe(ERROR_CODES.notFound);
    }
    for (const path of ['privacy-policy?locale=de', 'privacy-policy']) {
      const response = await read(t, path);
      expect(response.statusCode, path).toBe(400);
      expect(response.json().error.code).toBe(ERROR_CODES.validation);
      expect(response.json().error.details[0].path).toBe('locale');
    }
  });
});

describe('legal documents under LEGAL_BASE_URL', () => {
  let t: TestApp;
  let server: http.Server;
  const asked: string[] = [];
  const EXTERNAL = [
    '# Conditions générales',
    '',
    'Copie **externe** des conditions, voir [le site](https://legal.example/cgu).',
    '',
    '<script>alert(1)</script> <img src=x onerror="alert(2)">',
    '',
    '[piège](javascript:alert(3))',
  ].join('\n');

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      asked.push(req.url ?? '');
      if (req.url === '/legal/fr/terms-and-conditions.md') return res.end(EXTERNAL);
      if (req.url === '/legal/en/cookies-information.md') {
        // chunked, without a length announced: the cap counts what arrives
        res.write('a'.repeat(EXTERNAL_MAX_BYTES));
        return res.end('a');
      }
      res.statusCode = 500;
      res.end('server error');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    t = await createTestApp({ LEGAL_BASE_URL: `http://127.0.0.1:${port}/legal/` });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('serves the configured copy rendered, its raw HTML shown as text, fetched once for a while', async () => {
    const { response, body } = await document(t, 'terms-and-conditions?locale=fr');
    expect(body).toMatchObject({ locale: 'fr', fallback: false });
    expect(response.headers['cache-control']).toBe(LEGAL_CACHE_CONTROL);
    expect(body.html).not.toContain('Conditions générales');
    expect(body.html).toContain('Copie <strong>externe</strong> des conditions');
    expect(body.html).toContain(
      '<a href="https://legal.example/cgu" target="_blank" rel="noopener noreferrer">le site</a>',
    );
    expect(body.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &lt;img src=x onerror=&quot;alert(2)&quot;&gt;');
    expect(body.html).not.toMatch(/<script|<img|href="javascript/i);

    await document(t, 'terms-and-conditions?locale=fr');
    expect(asked.filter((url) => url === '/legal/fr/terms-and-conditions.md')).toHaveLength(1);
  });

  it('falls back to the shipped copy when the configured one fails or is too large', async () => {
    const shipped = await createTestApp();
    try {
      for (const path of ['privacy-policy?locale=en', 'cookies-information?locale=en']) {
        const { response, body } = await document(t, path);
        expect(body, path).toMatchObject({ locale: 'en', fallback: true });
        expect(response.headers['cache-control']).toBe(LEGAL_FALLBACK_CACHE_CONTROL);
        expect(body.html).toBe((await document(shipped, path)).body.html);
      }
      expect(asked).toContain('/legal/en/privacy-policy.md');
    } finally {
      await shipped.close();
    }
  });

  it('falls back to the shipped copy when the configured server does not answer', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const unreachable = await createTestApp({ LEGAL_BASE_URL: `http://127.0.0.1:${port}` });
    try {
      const { body } = await document(unreachable, 'data-processing?locale=fr');
      expect(body).toMatchObject({ locale: 'en', fallback: true });
      expect(body.html).toContain('<h2>');
    } finally {
      await unreachable.close();
    }
  });
});
