import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBody } from '../../../common/api/errors';
import { badRequest } from '../../http-error';
import { access } from '../../plugins/access';

const RedirectQuery = z.object({ to: z.string().min(1).max(2000) });

/**
 * The sign-in hand-over to the support site (spec 7, /api/jwt/redirect?to=): once signed in, the
 * browser is sent to the return target. Only the support site's own addresses are accepted, so the
 * route cannot serve as an open redirect.
 */
export async function ssoRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const supportOrigin = new URL(app.ctx.config.supportUrl).origin;

  api.get(
    '/jwt/redirect',
    {
      config: {
        access: access.signedIn,
        document: {
          responses: {
            302: {
              description: 'To the return target',
              headers: { Location: { description: 'The return target', schema: { type: 'string', format: 'uri' } } },
            },
          },
        },
      },
      schema: {
        operationId: 'redirectToSupport',
        tags: ['auth'],
        summary: 'Send the signed-in user on to the support site (return target on its origin only)',
        querystring: RedirectQuery,
        response: { 400: ErrorBody },
      },
    },
    async (request, reply) => {
      let target: URL;
      try {
        target = new URL(request.query.to);
      } catch {
        throw badRequest('This return address is not allowed');
      }
      if (target.origin !== supportOrigin) throw badRequest('This return address is not allowed');
      return reply.redirect(target.toString(), 302);
    },
  );
}
