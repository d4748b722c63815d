import { z } from 'zod/mini';
import { type Locale, LOCALES } from '../roles';

/**
 * The legal documents (spec 1, decisions): Markdown per locale shipped with the portal, or the copy
 * under a configured base URL. The server renders them (docs/decisions/040):
 * `GET /api/legal/{document}?locale=en|fr`.
 */
export const LEGAL_DOCUMENTS = [
  'terms-and-conditions',
  'data-processing',
  'privacy-policy',
  'cookies-information',
] as const;
export type LegalDocument = (typeof LEGAL_DOCUMENTS)[number];

export function isLegalDocument(value: string): value is LegalDocument {
  return (LEGAL_DOCUMENTS as readonly string[]).includes(value);
}

/** Decisions: the data-processing agreement is one English document, whatever the locale. */
export function documentLocale(document: LegalDocument, locale: Locale): Locale {
  return document === 'data-processing' ? 'en' : locale;
}

/** Where a configured base URL keeps the same files: {base}/{locale}/{document}.md */
export function externalDocumentUrl(base: string, document: LegalDocument, locale: Locale): string {
  return `${base.replace(/\/+$/, '')}/${documentLocale(document, locale)}/${document}.md`;
}

/** An unknown document is a 404 (the server's own answer), not a malformed request. */
export const LegalDocumentParams = z.object({ document: z.string() });
export type LegalDocumentParams = z.infer<typeof LegalDocumentParams>;

export const LegalDocumentQuery = z.object({ locale: z.enum(LOCALES) });
export type LegalDocumentQuery = z.infer<typeof LegalDocumentQuery>;

export const LegalDocumentHtml = z.object({
  /** safe HTML (server/markdown.ts): raw HTML of the source shown as text, links restricted */
  html: z.string(),
  /** the document's language, English for the data-processing agreement whatever was asked */
  locale: z.enum(LOCALES),
  /** the configured copy was out of reach: this is the copy shipped with the portal */
  fallback: z.boolean(),
});
export type LegalDocumentHtml = z.infer<typeof LegalDocumentHtml>;
