import type { FastifyInstance, FastifySchema } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import { Profile } from '../../../common/api/auth';
import { IdParam, Ok } from '../../../common/api/common';
import {
  AddPasskeyBody,
  ConfirmIdentityBody,
  ConfirmTotpBody,
  FactorAdded,
  RecoveryCodes,
  RenameBody,
  SecondFactorBody,
  TotpEnrolment,
  TwoFactorStatus,
  WebAuthnOptions,
} from '../../../common/api/two-factor';
import { errorResponses } from '../../http-error';
import { access } from '../../plugins/access';
import { perMinute } from '../../plugins/rate-limit';
import { actorOf, withSessionCookie } from '../../plugins/session';
import { profileById } from '../auth/service';
import { resetTwoFactor } from './admin';
import { clearPendingSignInCookie, pendingSignInOf, setPendingSignInCookie } from './cookie';
import * as service from './service';
import { completeSignIn, passkeySignInOptions } from './sign-in';

/** Two-factor sign-in: the second step, password-less passkeys, one's own factors, an admin's reset. */
export async function twoFactorRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const { config } = ctx;
  const tags = ['two-factor'];
  const signInLimit = perMinute(config.rateLimits.login);
  /** A route of the signed-in user's own factors: the session's user, the two-factor tag. */
  const ownRoute = <S extends FastifySchema>(schema: S & { operationId: string }) => ({
    config: { access: access.signedIn },
    schema: { tags, ...schema },
  });

  api.post(
    '/auth/second-factor',
    {
      config: { access: access.public, rateLimit: signInLimit },
      schema: {
        operationId: 'completeSignIn',
        tags,
        summary:
          'The second step of a sign-in (the cookie of POST /api/auth/login or /api/auth/passkey/options): a code of the authenticator app, a recovery code or a passkey assertion; opens the session and answers the profile',
        body: SecondFactorBody,
        response: { 200: Profile, ...errorResponses(400, 401, 429) },
      },
    },
    async (request, reply) => {
      const result = await completeSignIn(ctx, actorOf(request), pendingSignInOf(request), request.body, (id) =>
        profileById(ctx, id),
      );
      clearPendingSignInCookie(reply, config);
      return withSessionCookie(reply, config, result);
    },
  );

  api.post(
    '/auth/passkey/options',
    {
      config: { access: access.public, rateLimit: signInLimit },
      schema: {
        operationId: 'passkeySignInOptions',
        tags,
        summary:
          "WebAuthn options for a sign-in: the account's passkeys after its password, else any passkey (a sign-in without password, whose pending cookie this sets)",
        response: { 200: WebAuthnOptions, ...errorResponses(429) },
      },
    },
    async (request, reply) => {
      const result = await passkeySignInOptions(ctx, pendingSignInOf(request));
      if (result.pending) setPendingSignInCookie(reply, config, result.pending);
      return result.body;
    },
  );

  api.get(
    '/auth/two-factor',
    ownRoute({
      operationId: 'getTwoFactor',
      summary: 'Your second factors: passkeys, the authenticator app, how many recovery codes are left',
      response: { 200: TwoFactorStatus, ...errorResponses(401) },
    }),
    async (request) => service.twoFactorStatus(ctx, actorOf(request)),
  );

  api.post(
    '/auth/two-factor/passkeys/options',
    ownRoute({
      operationId: 'passkeyRegistrationOptions',
      summary: 'WebAuthn options to add a passkey; the challenge is kept for this session for 5 minutes',
      response: { 200: WebAuthnOptions, ...errorResponses(400, 401) },
    }),
    async (request) => service.passkeyRegistrationOptions(ctx, actorOf(request)),
  );

  api.post(
    '/auth/two-factor/passkeys',
    ownRoute({
      operationId: 'addPasskey',
      summary:
        'Add a passkey (the answer to the options above); the first factor comes with ten recovery codes, shown once',
      body: AddPasskeyBody,
      response: { 200: FactorAdded, ...errorResponses(400, 401, 409) },
    }),
    async (request) => service.addPasskey(ctx, actorOf(request), request.body),
  );

  api.patch(
    '/auth/two-factor/passkeys/:id',
    ownRoute({
      operationId: 'renamePasskey',
      summary: 'Rename one of your passkeys',
      params: IdParam,
      body: RenameBody,
      response: { 200: TwoFactorStatus, ...errorResponses(400, 401, 404) },
    }),
    async (request) => service.renamePasskey(ctx, actorOf(request), { id: request.params.id, ...request.body }),
  );

  api.delete(
    '/auth/two-factor/passkeys/:id',
    ownRoute({
      operationId: 'removePasskey',
      summary:
        'Remove one of your passkeys (not the last factor when your account requires one); asks for your current password or an authenticator code',
      params: IdParam,
      body: z.nullish(ConfirmIdentityBody),
      response: { 200: TwoFactorStatus, ...errorResponses(400, 401, 404, 409, 429) },
    }),
    async (request) => service.removePasskey(ctx, actorOf(request), { ...request.body, ...request.params }),
  );

  api.post(
    '/auth/two-factor/totp',
    ownRoute({
      operationId: 'startTotp',
      summary: 'Start setting up an authenticator app: its secret and QR code, shown once',
      response: { 200: TotpEnrolment, ...errorResponses(401, 409) },
    }),
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return service.startTotp(ctx, actorOf(request));
    },
  );

  api.post(
    '/auth/two-factor/totp/confirm',
    ownRoute({
      operationId: 'confirmTotp',
      summary:
        'Finish setting up the authenticator app with a code it shows; the first factor comes with ten recovery codes',
      body: ConfirmTotpBody,
      response: { 200: FactorAdded, ...errorResponses(400, 401) },
    }),
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return service.confirmTotp(ctx, actorOf(request), request.body);
    },
  );

  api.patch(
    '/auth/two-factor/totp',
    ownRoute({
      operationId: 'renameTotp',
      summary: 'Rename your authenticator app',
      body: RenameBody,
      response: { 200: TwoFactorStatus, ...errorResponses(400, 401, 404) },
    }),
    async (request) => service.renameTotp(ctx, actorOf(request), request.body),
  );

  api.delete(
    '/auth/two-factor/totp',
    ownRoute({
      operationId: 'removeTotp',
      summary:
        'Remove your authenticator app (not the last factor when your account requires one); asks for your current password or one of its codes',
      body: z.nullish(ConfirmIdentityBody),
      response: { 200: TwoFactorStatus, ...errorResponses(400, 401, 404, 409, 429) },
    }),
    async (request) => service.removeTotp(ctx, actorOf(request), request.body ?? {}),
  );

  api.post(
    '/auth/two-factor/recovery-codes',
    ownRoute({
      operationId: 'regenerateRecoveryCodes',
      summary:
        'Ten new recovery codes, shown once; the previous ones stop working. Asks for your current password or an authenticator code',
      body: z.nullish(ConfirmIdentityBody),
      response: { 200: RecoveryCodes, ...errorResponses(400, 401, 429) },
    }),
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return service.regenerateRecoveryCodes(ctx, actorOf(request), request.body ?? {});
    },
  );

  api.delete(
    '/users/:id/two-factor',
    {
      config: { access: access.can('manageUsers') },
      schema: {
        operationId: 'resetTwoFactor',
        tags: ['users'],
        summary: "Remove another user's second factors and recovery codes (audited; the user is told by mail)",
        params: IdParam,
        response: { 200: Ok, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => resetTwoFactor(ctx, actorOf(request), request.params),
  );
}
