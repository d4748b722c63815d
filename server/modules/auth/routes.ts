import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CaptchaChallenge,
  ConfirmEmailBody,
  ConfirmEmailResult,
  CheckPasswordResetQuery,
  CheckPasswordResetResult,
  LoginBody,
  Profile,
  RequestPasswordResetBody,
  ResetPasswordBody,
  ResetPasswordResult,
  UpdateProfileBody,
} from '../../../common/api/auth';
import { Ok } from '../../../common/api/common';
import { SecondFactorNeeded } from '../../../common/api/two-factor';
import { withPendingSignInCookie } from '../two-factor/cookie';
import { z } from 'zod/mini';
import { CAPTCHA_REQUIRED_STATUS } from '../../../common/constants';
import { errorResponses } from '../../http-error';
import { access } from '../../plugins/access';
import { perMinute } from '../../plugins/rate-limit';
import { actorOf, clearSessionCookie, withSessionCookie } from '../../plugins/session';
import { confirmEmail } from './email-change';
import * as service from './service';

/** Sign-in, sign-out, the profile, password reset and the captcha challenge. */
export async function authRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const { config } = ctx;

  api.post(
    '/auth/login',
    {
      config: { access: access.public, rateLimit: perMinute(config.rateLimits.login) },
      schema: {
        operationId: 'login',
        tags: ['auth'],
        summary:
          'Sign in; an account with a second factor answers `secondFactor` and no session yet (POST /api/auth/second-factor completes it); after repeated failures a solved captcha is required (HTTP 420; the refusal before says so in details, path recaptchaResponse), after more the account waits (429 with Retry-After)',
        body: LoginBody,
        response: {
          200: z.union([Profile, SecondFactorNeeded]),
          ...errorResponses(400, 401, CAPTCHA_REQUIRED_STATUS, 429),
        },
      },
    },
    async (request, reply) => {
      const result = await service.login(ctx, actorOf(request), request.body);
      if ('pending' in result) return withPendingSignInCookie(reply, config, result);
      return withSessionCookie(reply, config, result);
    },
  );

  api.post(
    '/auth/logout',
    {
      // Signing out without a session is harmless, and the client may not know its session expired.
      config: { access: access.public },
      schema: { operationId: 'logout', tags: ['auth'], summary: 'Sign out', response: { 200: Ok } },
    },
    async (request, reply) => {
      const result = await service.logout(ctx, actorOf(request));
      clearSessionCookie(request, reply, config);
      return result;
    },
  );

  api.get(
    '/auth/me',
    {
      config: { access: access.signedIn },
      schema: {
        operationId: 'getProfile',
        tags: ['auth'],
        summary: 'The signed-in user and their accounts',
        response: { 200: Profile, ...errorResponses(401) },
      },
    },
    async (request) => service.me(ctx, actorOf(request)),
  );

  api.patch(
    '/auth/me',
    {
      config: { access: access.signedIn },
      schema: {
        operationId: 'updateProfile',
        tags: ['auth'],
        summary:
          'Update full name or preferred language; a new e-mail needs currentPassword and takes effect when the link mailed to it is followed',
        body: UpdateProfileBody,
        response: { 200: Profile, ...errorResponses(400, 401) },
      },
    },
    async (request) => service.updateProfile(ctx, actorOf(request), request.body),
  );

  api.post(
    '/auth/confirm-email',
    {
      config: { access: access.public, rateLimit: perMinute(config.rateLimits.passwordReset) },
      schema: {
        operationId: 'confirmEmail',
        tags: ['auth'],
        summary: 'Follow the link mailed to a new address: the account takes that address',
        body: ConfirmEmailBody,
        response: { 200: ConfirmEmailResult, ...errorResponses(400, 409, 429) },
      },
    },
    async (request) => confirmEmail(ctx, actorOf(request), request.body),
  );

  api.post(
    '/auth/request-password-reset',
    {
      config: { access: access.public, rateLimit: perMinute(config.rateLimits.passwordReset) },
      schema: {
        operationId: 'requestPasswordReset',
        tags: ['auth'],
        summary: 'Mail a reset link; answers the same whether or not the e-mail has an account',
        body: RequestPasswordResetBody,
        response: { 200: Ok, ...errorResponses(400, CAPTCHA_REQUIRED_STATUS, 429) },
      },
    },
    async (request) => service.requestPasswordReset(ctx, actorOf(request), request.body),
  );

  api.get(
    '/auth/check-password-reset',
    {
      config: { access: access.public },
      schema: {
        operationId: 'checkPasswordReset',
        tags: ['auth'],
        summary:
          "Whether a password-reset token can still be used; answers the account's e-mail, which the form's password may not be made of",
        querystring: CheckPasswordResetQuery,
        response: { 200: CheckPasswordResetResult, ...errorResponses(400) },
      },
    },
    async (request) => service.checkPasswordResetToken(ctx, actorOf(request), request.query),
  );

  api.patch(
    '/auth/reset-password',
    {
      config: { access: access.public, rateLimit: perMinute(config.rateLimits.passwordReset) },
      schema: {
        operationId: 'resetPassword',
        tags: ['auth'],
        summary: 'Choose a new password with a reset token; ends every session of the user; answers the account e-mail',
        body: ResetPasswordBody,
        response: { 200: ResetPasswordResult, ...errorResponses(400, 429) },
      },
    },
    async (request) => service.resetPassword(ctx, actorOf(request), request.body),
  );

  api.get(
    '/captcha/challenge',
    {
      // Making a challenge derives one key on the server: limited like the sign-in it serves.
      config: { access: access.public, rateLimit: perMinute(config.rateLimits.login) },
      schema: {
        operationId: 'getCaptchaChallenge',
        tags: ['auth'],
        summary: 'A proof-of-work challenge for the self-hosted captcha (ALTCHA format)',
        response: { 200: CaptchaChallenge, ...errorResponses(404, 429) },
      },
    },
    async () => service.captchaChallenge(ctx),
  );
}
