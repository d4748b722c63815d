import { readFile } from 'node:fs/promises';
import {
  documentLocale,
  externalDocumentUrl,
  isLegalDocument,
  type LegalDocument,
  type LegalDocumentHtml,
} from '../../../common/api/legal';
import type { Locale } from '../../../common/roles';
import type { AppContext } from '../../context';
import { notFound } from '../../http-error';
import { renderMarkdown } from '../../markdown';

/** A configured copy that answers slower than this is out of reach: the reader gets the shipped one. */
const EXTERNAL_TIMEOUT_MS = 5000;
/** Legal texts are a few tens of KB; a bigger answer is not one of them. */
export const EXTERNAL_MAX_BYTES = 512 * 1024;
/** How long a fetched copy is served before it is fetched again. */
const EXTERNAL_CACHE_MS = 5 * 60_000;
/** How long the shipped copy stands in for an unreachable configured one before it is tried again. */
const FALLBACK_CACHE_MS = 60_000;

/** Shipped with the portal, next to this module: the server reads them where it runs from. */
const BUNDLED_ROOT = new URL('./documents/', import.meta.url);

/** The page has its own translated title; a leading '# Title' in the document would repeat it. */
function withoutLeadingTitle(markdown: string): string {
  return markdown.replace(/^\s*#\s[^\n]*\n+/, '');
}

const render = (markdown: string) => renderMarkdown(withoutLeadingTitle(markdown));

// The shipped files do not change while the server runs.
const bundledHtml = new Map<string, Promise<string>>();

function bundledDocument(document: LegalDocument, locale: Locale): Promise<string> {
  const key = `${locale}/${document}`;
  let html = bundledHtml.get(key);
  if (!html) {
    html = readFile(new URL(`${key}.md`, BUNDLED_ROOT), 'utf8').then(render);
    html.catch(() => bundledHtml.delete(key));
    bundledHtml.set(key, html);
  }
  return html;
}

/** The body of a successful answer, refused beyond `EXTERNAL_MAX_BYTES`. */
async function fetchText(url: string): Promise<string> {
  const response = await fetch(url, { signal: AbortSignal.timeout(EXTERNAL_TIMEOUT_MS), redirect: 'follow' });
  if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
  const declared = Number(response.headers.get('content-length'));
  if (declared > EXTERNAL_MAX_BYTES) throw new Error(`${declared} bytes`);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (let part = await reader.read(); !part.done; part = await reader.read()) {
    size += part.value.byteLength;
    if (size > EXTERNAL_MAX_BYTES) {
      await reader.cancel();
      throw new Error(`more than ${EXTERNAL_MAX_BYTES} bytes`);
    }
    chunks.push(part.value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

interface Cached {
  expires: number;
  answer: Promise<LegalDocumentHtml>;
}

// Per application (each has its own configuration); one fetch serves every reader meanwhile.
const externalCache = new WeakMap<AppContext, Map<string, Cached>>();

function externalDocument(ctx: AppContext, base: string, document: LegalDocument, locale: Locale) {
  let cache = externalCache.get(ctx);
  if (!cache) externalCache.set(ctx, (cache = new Map()));
  const url = externalDocumentUrl(base, document, locale);
  const cached = cache.get(url);
  if (cached && cached.expires > Date.now()) return cached.answer;

  const entry: Cached = { expires: Number.POSITIVE_INFINITY, answer: Promise.resolve(null as never) };
  entry.answer = fetchText(url).then(
    (markdown) => {
      entry.expires = Date.now() + EXTERNAL_CACHE_MS;
      return { html: render(markdown), locale, fallback: false };
    },
    async (error: unknown) => {
      ctx.log.warn({ url, err: error }, 'legal document out of reach, the shipped copy is served');
      entry.expires = Date.now() + FALLBACK_CACHE_MS;
      return { html: await bundledDocument(document, locale), locale, fallback: true };
    },
  );
  cache.set(url, entry);
  return entry.answer;
}

/**
 * A legal document as safe HTML in the reader's language (the data-processing agreement in English):
 * the configured copy when LEGAL_BASE_URL is set and answers, else the one shipped with the portal.
 */
export async function legalDocument(ctx: AppContext, document: string, asked: Locale): Promise<LegalDocumentHtml> {
  if (!isLegalDocument(document)) throw notFound('No such legal document');
  const locale = documentLocale(document, asked);
  const base = ctx.config.legalBaseUrl;
  if (base) return externalDocument(ctx, base, document, locale);
  return { html: await bundledDocument(document, locale), locale, fallback: false };
}
