import { queryOptions } from '@tanstack/react-query';
import { type LegalDocument, LegalDocumentHtml } from '../../common/api/legal';
import type { Locale } from '../../common/roles';
import { api } from './client';

/** `GET /api/legal/{document}?locale=`: the document rendered to safe HTML by the server. */
const getLegalDocument = (document: LegalDocument, locale: Locale, signal?: AbortSignal) =>
  api.get(`/legal/${document}`, { schema: LegalDocumentHtml, query: { locale }, signal });

export const legalDocumentQuery = (document: LegalDocument, locale: Locale) =>
  queryOptions({
    queryKey: ['legal', document, locale],
    queryFn: ({ signal }) => getLegalDocument(document, locale, signal),
    // as long as the server lets the browser keep it (server/modules/legal/routes.ts)
    staleTime: 5 * 60_000,
  });
