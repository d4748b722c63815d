import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access } from '../../plugins/access';
import { actorOf } from '../../plugins/session';
import { deskUnavailablePage, handOffPage } from './page';
import { supportHandOff } from './service';

const RedirectQuery = z.object({ to: z.string().max(2000).optional() });

/** The hand-off page's own CSP, by reply, set once the security plugin has written the common one. */
const pagePolicies = new WeakMap<FastifyReply, string>();

/**
 * The sign-in hand-over to the support desk (spec 7, /api/jwt/redirect?to=; docs/decisions/072): a
 * signed-in user gets a page that posts a short-lived token to the desk's JWT endpoint; a visitor is
 * sent to the login page, which brings them back here once signed in.
 */
export async function ssoRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  api.get(
    '/jwt/redirect',
    {
      config: {
        access: access.public,
        document: {
          responses: {
            200: {
              description: 'A page that posts the token (`jwt`) and `return_to` to the support desk',
              bytes: 'text/html',
            },
            409: {
              description:
                "No support desk is set up (SUPPORT_JWT_SECRET unset, code `support_desk_not_configured`): a page in the reader's language that says so, with a link to the portal's home",
              bytes: 'text/html',
            },
            302: {
              description:
                'A visitor without a session: to the login page, which keeps the return target; a user who must first add a second factor (REQUIRE_2FA_FOR): to the settings page',
              headers: { Location: { description: 'The login page', schema: { type: 'string' } } },
            },
          },
        },
      },
      schema: {
        operationId: 'redirectToSupport',
        tags: ['auth'],
        summary: 'Sign the user in to the support desk (return target on its origin only)',
        description:
          'A signed-in user gets an HTML page whose form posts a short-lived HS256 token (`jwt`) and ' +
          "`return_to` to the desk's JWT endpoint. A return target off the desk's origin is replaced by " +
          "the desk's home. A visitor is sent to /{locale}/login?sso=<target>. Without SUPPORT_JWT_SECRET, " +
          '409 with an HTML page (support_desk_not_configured) that says so and links home, never JSON. A user REQUIRE_2FA_FOR names who has no second factor yet is sent to ' +
          '/{locale}/settings, with no token.',
        querystring: RedirectQuery,
      },
      onSend: async (_request, reply, payload) => {
        // After the security plugin's headers (app-level hooks run first): this page's own CSP.
        const csp = pagePolicies.get(reply);
        if (csp) reply.header('Content-Security-Policy', csp).header('Referrer-Policy', 'no-referrer');
        return payload;
      },
    },
    async (request, reply) => {
      const handOff = await supportHandOff(ctx, actorOf(request), {
        to: request.query.to,
        acceptLanguage: request.headers['accept-language'],
      });
      if (handOff.kind === 'login' || handOff.kind === 'enrol') return reply.redirect(handOff.location, 302);
      const { html, csp } = handOff.kind === 'post' ? handOffPage(handOff) : deskUnavailablePage(handOff.locale);
      if (handOff.kind === 'unavailable') reply.status(409);
      pagePolicies.set(reply, csp);
      // a page, not JSON: the documented 200 above (no response schema serializes it)
      return reply.type('text/html; charset=utf-8').send(html as never);
    },
  );
}
