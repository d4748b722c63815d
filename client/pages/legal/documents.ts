import type { Locale } from '../../../common/roles';

export const LEGAL_DOCUMENTS = [
  'terms-and-conditions',
  'data-processing',
  'privacy-policy',
  'cookies-information',
] as const;
export type LegalDocument = (typeof LEGAL_DOCUMENTS)[number];

/** Decisions: the data-processing agreement is one English document, whatever the locale. */
export function documentLocale(document: LegalDocument, locale: Locale): Locale {
  return document === 'data-processing' ? 'en' : locale;
}

/** Where a configured base URL keeps the same files: {base}/{locale}/{document}.md */
export function externalDocumentUrl(base: string, document: LegalDocument, locale: Locale): string {
  return `${base.replace(/\/+$/, '')}/${documentLocale(document, locale)}/${document}.md`;
}

const bundled = import.meta.glob<string>('../../legal/*/*.md', { query: '?raw', import: 'default' });

export async function loadBundledDocument(document: LegalDocument, locale: Locale): Promise<string> {
  const load = bundled[`../../legal/${documentLocale(document, locale)}/${document}.md`];
  if (!load) throw new Error(`No bundled document ${document}`);
  return load();
}

/** The page has its own translated title; a leading '# Title' in the document would repeat it. */
export function withoutLeadingTitle(markdown: string): string {
  return markdown.replace(/^\s*#\s[^\n]*\n+/, '');
}
