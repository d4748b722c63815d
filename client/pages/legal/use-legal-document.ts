import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../i18n/use-translation';
import { documentLocale, externalDocumentUrl, type LegalDocument } from '../../../common/api/legal';
import { legalDocumentQuery } from '../../api/legal';
import { useConfig } from '../../app/session';
import { currentLocale } from '../../i18n';

/**
 * A legal document in the reader's language, rendered by the server (decisions: Markdown shipped per
 * locale, or the copy under a configured base URL): the legal pages and the EULA and GDPR steps of
 * the invitation flow read it. `externalUrl` is the configured copy, for a link when the server
 * could not reach it and sent the shipped one.
 */
export function useLegalDocument(document: LegalDocument) {
  const { i18n } = useTranslation();
  const locale = currentLocale(i18n.language);
  const base = useConfig().data?.legalBaseUrl ?? null;
  const content = useQuery(legalDocumentQuery(document, locale));
  const language = content.data?.locale ?? documentLocale(document, locale);
  return {
    content,
    locale,
    externalUrl: base ? externalDocumentUrl(base, document, locale) : null,
    language,
  };
}
