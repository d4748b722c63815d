import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useConfig } from '../../app/session';
import { currentLocale } from '../../i18n';
import { documentLocale, externalDocumentUrl, type LegalDocument, loadBundledDocument } from './documents';

async function fetchExternal(url: string): Promise<string> {
  const response = await fetch(url, { credentials: 'omit' });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.text();
}

/**
 * A legal document in the reader's language (decisions: Markdown shipped per locale, or the copy under
 * a configured base URL): the legal pages and the EULA and GDPR steps of the invitation flow read it.
 */
export function useLegalDocument(document: LegalDocument) {
  const { i18n } = useTranslation();
  const locale = currentLocale(i18n.language);
  const config = useConfig();
  const base = config.data?.legalBaseUrl ?? null;
  const externalUrl = base ? externalDocumentUrl(base, document, locale) : null;
  const content = useQuery({
    queryKey: ['legal', document, documentLocale(document, locale), externalUrl],
    queryFn: async () => {
      if (!externalUrl) return { markdown: await loadBundledDocument(document, locale), fallback: false };
      try {
        return { markdown: await fetchExternal(externalUrl), fallback: false };
      } catch {
        // The configured copy is out of reach (network, CSP); the shipped copy is better than nothing.
        return { markdown: await loadBundledDocument(document, locale), fallback: true };
      }
    },
    enabled: !config.isPending,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return { content, locale, externalUrl, language: documentLocale(document, locale) };
}
