import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBody } from '../../../common/api/errors';
import { LegalDocumentHtml, LegalDocumentParams, LegalDocumentQuery } from '../../../common/api/legal';
import { access } from '../../plugins/access';
import * as service from './service';

/** A document changes with a new release or its configured copy: readers may keep it a few minutes. */
export const LEGAL_CACHE_CONTROL = 'public, max-age=300';
/** The shipped copy standing in for the configured one: asked again sooner. */
export const LEGAL_FALLBACK_CACHE_CONTROL = 'public, max-age=60';

const cacheControls = new WeakMap<FastifyRequest, string>();

/** The legal documents as HTML, for the legal pages and the invitation and sign-up flows. */
export async function legalRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  api.get(
    '/legal/:document',
    {
      config: { access: access.public },
      schema: {
        operationId: 'getLegalDocument',
        tags: ['legal'],
        summary: 'A legal document rendered as HTML in the given language',
        description:
          'terms-and-conditions, data-processing (English only), privacy-policy, cookies-information. ' +
          'From the configured LEGAL_BASE_URL when set, else the copy shipped with the portal; `fallback` ' +
          'is true when the configured copy was out of reach and the shipped one answers instead.',
        params: LegalDocumentParams,
        querystring: LegalDocumentQuery,
        response: { 200: LegalDocumentHtml, 404: ErrorBody },
      },
      // after the API's own `no-store` (plugins/security.ts): the same text for everyone
      onSend: async (request, reply) => {
        const cacheControl = cacheControls.get(request);
        if (reply.statusCode === 200 && cacheControl) reply.header('Cache-Control', cacheControl);
      },
    },
    async (request) => {
      const answer = await service.legalDocument(ctx, request.params.document, request.query.locale);
      cacheControls.set(request, answer.fallback ? LEGAL_FALLBACK_CACHE_CONTROL : LEGAL_CACHE_CONTROL);
      return answer;
    },
  );
}
