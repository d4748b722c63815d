import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type Provider from 'oidc-provider';
import { ErrorBody } from '../../../common/api/errors';
import { InteractionDetails, InteractionOutcome, InteractionParams } from '../../../common/api/oidc';
import { notFound } from '../../http-error';
import { access } from '../../plugins/access';
import { applySecurityHeaders } from '../../plugins/security';
import { clientOrigins } from './clients-config';
import { advance, consent, currentInteraction, describe, type RawExchange, refuse } from './interactions';
import { errorPage, pageLocale } from './pages';
import { createProvider, OIDC_PREFIX } from './provider';

/**
 * The /oidc prefix and its own rules, all declared here (docs/oidc.md, decision 070):
 * - the provider's endpoints (discovery, JWKS, authorization, token, userinfo, revocation, logout)
 *   are Fastify routes that hand the raw request to the provider: the access plugin, the session
 *   and the authorisation matrix see them like any route. They are public (the protocol decides:
 *   client authentication, PKCE, the xsrf value of the logout form), take forms from other sites
 *   (a relying party's page may post to them; SameSite=Lax keeps the portal's session cookie off
 *   such posts) and leave their bodies unread for the provider;
 * - their pages may submit forms to the configured clients' origins (form-action), since a logout
 *   confirmation or a consent ends at the relying party; nothing else is loosened;
 * - the interaction routes are the portal's: the interaction cookie and the portal's session decide,
 *   errors are the portal's error page (HTML) or its one error body (JSON).
 */

/** The provider's routes answer for themselves under the prefix, whatever follows it. */
const PROVIDER_METHODS = ['GET', 'POST', 'OPTIONS'] as const;

/** The provider's mount: `/oidc/token` reaches it as `/token`, with the prefix as its mount path. */
function mounted(raw: IncomingMessage): IncomingMessage {
  const original = raw.url ?? '/';
  Object.assign(raw, { originalUrl: original, url: original.slice(OIDC_PREFIX.length) || '/' });
  return raw;
}

/**
 * The provider's session leans on the portal's: an authorization request from a browser without a
 * portal session (signed out without the handshake, or every session ended by a password reset)
 * must sign in again, whatever session the provider still holds. `prompt=none` is left as asked.
 */
function withPortalSession(raw: IncomingMessage, signedIn: boolean): IncomingMessage {
  const url = new URL(raw.url ?? '/', 'http://portal');
  if (signedIn || url.pathname !== `${OIDC_PREFIX}/auth`) return raw;
  const prompts = (url.searchParams.get('prompt') ?? '').split(' ').filter(Boolean);
  if (prompts.includes('none') || prompts.includes('login')) return raw;
  url.searchParams.set('prompt', [...prompts, 'login'].join(' '));
  raw.url = url.pathname + url.search;
  return raw;
}

function oidcSecurityHeaders(reply: FastifyReply, formTargets: string): void {
  const { config } = reply.server.ctx;
  applySecurityHeaders(reply, config, reply.request.url);
  const csp = String(reply.getHeader('Content-Security-Policy') ?? '');
  reply.header('Content-Security-Policy', csp.replace("form-action 'self'", `form-action 'self' ${formTargets}`));
}

async function providerEndpoints(app: FastifyInstance, provider: Provider) {
  const handle = provider.callback();
  const formTargets = clientOrigins(app.ctx.config.oidc.clients).join(' ');
  // The provider parses its own bodies: it gets the bytes, whatever the type. (The raw stream is
  // already read by then, through the body timeout's stream, plugins/timeouts.ts; the provider takes
  // `req.body` instead, with a warning once per process.)
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  for (const method of PROVIDER_METHODS) {
    app.route({
      method,
      url: `${OIDC_PREFIX}/*`,
      config: { access: access.public, formPost: { crossSite: true } },
      handler: async (request, reply) => {
        oidcSecurityHeaders(reply, formTargets);
        const headers = reply.getHeaders();
        reply.hijack();
        for (const [name, value] of Object.entries(headers)) if (value !== undefined) reply.raw.setHeader(name, value);
        if (Buffer.isBuffer(request.body)) Object.assign(request.raw, { body: request.body });
        await handle(mounted(withPortalSession(request.raw, request.user !== null)), reply.raw);
      },
    });
  }
}

const exchange = (request: FastifyRequest, reply: FastifyReply): RawExchange => ({ req: request.raw, res: reply.raw });

/** An interaction's uid opens a sign-in under way: kept out of the request logs like other keys. */
const SECRET_PARAMS = ['uid'];

async function interactionRoutes(app: FastifyInstance, provider: Provider) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const localeOf = (request: FastifyRequest, uiLocales: unknown) =>
    request.user?.preferredLocale ?? pageLocale(uiLocales, request.headers['accept-language']);

  // Where the provider sends the browser at each prompt, and where the login page sends it back.
  api.get(
    `${OIDC_PREFIX}/interaction/:uid`,
    { config: { access: access.public, secretParams: SECRET_PARAMS }, schema: { params: InteractionParams } },
    async (request, reply) => {
      const details = await currentInteraction(provider, exchange(request, reply), request.params.uid);
      const locale = localeOf(request, details?.params.ui_locales);
      if (!details) return reply.status(400).type('text/html').send(errorPage(locale, 'interaction_not_found'));
      const step = await advance(app.ctx, provider, exchange(request, reply), details, request.user, locale);
      return reply.redirect(step.redirect, 303);
    },
  );

  const found = async (request: FastifyRequest, reply: FastifyReply) => {
    const { uid } = request.params as InteractionParams;
    const details = await currentInteraction(provider, exchange(request, reply), uid);
    // An interaction of another user's sign-in is no business of this session.
    if (!details || details.session?.accountId !== String(request.user?.id)) throw notFound('Interaction not found');
    return details;
  };

  api.get(
    `${OIDC_PREFIX}/interaction/:uid/details`,
    {
      config: { access: access.signedIn, secretParams: SECRET_PARAMS },
      schema: { params: InteractionParams, response: { 200: InteractionDetails, 404: ErrorBody } },
    },
    async (request, reply) => describe(provider, await found(request, reply)),
  );

  api.post(
    `${OIDC_PREFIX}/interaction/:uid/confirm`,
    {
      config: { access: access.signedIn, secretParams: SECRET_PARAMS },
      schema: { params: InteractionParams, response: { 200: InteractionOutcome, 404: ErrorBody } },
    },
    async (request, reply) => {
      const details = await found(request, reply);
      const step = await consent(provider, exchange(request, reply), details, String(request.user?.id));
      return { location: step.redirect };
    },
  );

  api.post(
    `${OIDC_PREFIX}/interaction/:uid/abort`,
    {
      config: { access: access.signedIn, secretParams: SECRET_PARAMS },
      schema: { params: InteractionParams, response: { 200: InteractionOutcome, 404: ErrorBody } },
    },
    async (request, reply) => {
      await found(request, reply);
      return { location: (await refuse(provider, exchange(request, reply))).redirect };
    },
  );
}

/** The OpenID Connect provider under /oidc (docs/oidc.md). */
export async function oidcRoutes(app: FastifyInstance) {
  const provider = await createProvider(app.ctx);
  await app.register(async (scope) => providerEndpoints(scope, provider));
  await app.register(async (scope) => interactionRoutes(scope, provider));
}
