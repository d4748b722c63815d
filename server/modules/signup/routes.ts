import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Ok } from '../../../common/api/common';
import { SignupBody } from '../../../common/api/signup';
import {
  SignupConfirmBody,
  SignupConfirmResult,
  SignupKeyParam,
  SignupPreview,
} from '../../../common/api/signup-confirmation';
import { errorResponses } from '../../http-error';
import { access } from '../../plugins/access';
import { perMinute } from '../../plugins/rate-limit';
import { actorOf, withSessionCookie } from '../../plugins/session';
import * as service from './service';

/**
 * Self-service sign-up (spec sections 2 and 7, docs/decisions/067). Signing up is for visitors (a
 * signed-in caller is refused, as the page sends them home); the confirmation link's key is the
 * credential of the two others, open to anyone holding it like an invitation's. Each is held to a
 * per-IP limit: signing up to the sign-up one, the key's routes to invitation acceptance's.
 */
export async function signupRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['signup'];
  const keyLimit = perMinute(ctx.config.rateLimits.invitation);

  api.post(
    '/signup',
    {
      config: { access: access.visitor, rateLimit: perMinute(ctx.config.rateLimits.signup) },
      schema: {
        operationId: 'signUp',
        tags,
        summary: 'Sign up for a self-service trial: mails a confirmation link to the address',
        description:
          '409 signup_already_exists when an account has the address; 409 signup_pending_invitation when a sign-up of the address waits for its confirmation (the mail was sent). Every outcome is answered no sooner than SIGNUP_ANSWER_FLOOR_MS (300 ms by default) after the request.',
        body: SignupBody,
        response: { 200: Ok, ...errorResponses(400, 403, 409, 429) },
      },
    },
    async (request) => service.requestSignup(ctx, actorOf(request), request.body),
  );

  api.get(
    '/signup/:key',
    {
      config: { access: access.public, rateLimit: keyLimit, secretParams: ['key'] },
      schema: {
        operationId: 'getSignup',
        tags,
        summary: 'What a confirmation link shows: the address, the name and the company signed up',
        description:
          'An unknown key 404 (signup_invalid); a confirmed one 410 signup_confirmed, an expired one 410 signup_expired.',
        params: SignupKeyParam,
        response: { 200: SignupPreview, ...errorResponses(400, 404, 410, 429) },
      },
    },
    async (request) => service.getSignup(ctx, actorOf(request), request.params),
  );

  api.post(
    '/signup/:key/confirm',
    {
      config: { access: access.public, rateLimit: keyLimit, secretParams: ['key'] },
      schema: {
        operationId: 'confirmSignup',
        tags,
        summary:
          'Confirm a sign-up: creates the account, the self-service customer in trial and its project manager; signs the account in',
        description:
          'Once per key, even when two requests race: the other gets 410 signup_confirmed. 409 signup_already_exists when the address got an account meanwhile.',
        params: SignupKeyParam,
        body: SignupConfirmBody,
        response: { 200: SignupConfirmResult, ...errorResponses(400, 404, 409, 410, 429) },
      },
    },
    async (request, reply) =>
      withSessionCookie(
        reply,
        ctx.config,
        await service.confirmSignup(ctx, actorOf(request), { ...request.params, ...request.body }),
      ),
  );
}
