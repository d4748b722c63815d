import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ERROR_CODES } from '../../../common/api/errors';
import type { AppContext } from '../../context';
import { HttpError } from '../../http-error';
import * as repo from './repo';
import { twoFactorRequiredFor } from './service';

/**
 * REQUIRE_2FA_FOR (docs/configuration.md): a user of a listed type without a second factor may sign
 * in with the password, but until they add a factor the API answers them 403 `two_factor_required`
 * everywhere except their profile, signing out and the two-factor routes themselves; the client sees
 * `twoFactorSetupRequired` in the profile and shows the enrolment screen. Only users of a listed type
 * cost the extra query.
 */
export async function setupRequired(ctx: AppContext, user: { id: number; type: string }): Promise<boolean> {
  return twoFactorRequiredFor(ctx, user.type) && (await repo.factorCount(ctx.db, user.id)) === 0;
}

/** What such a user may still call: who they are, signing out, and adding a factor. */
const OPEN_DURING_ENROLMENT = [/^\/api\/auth\/me$/, /^\/api\/auth\/logout$/, /^\/api\/auth\/two-factor(\/|$)/];

const twoFactorRequired = () =>
  new HttpError(
    403,
    ERROR_CODES.twoFactorRequired,
    'Your account requires a second factor: add a passkey or an authenticator app in the settings first',
  );

async function enforceEnrolment(request: FastifyRequest) {
  const user = request.user;
  if (!user || !request.url.startsWith('/api/')) return;
  const rule = request.routeOptions.config.access;
  if (!rule || rule.kind === 'public' || rule.kind === 'visitor') return;
  const url = request.routeOptions.url ?? '';
  if (OPEN_DURING_ENROLMENT.some((open) => open.test(url))) return;
  if (await setupRequired(request.server.ctx, user)) throw twoFactorRequired();
}

async function enrolmentPlugin(app: FastifyInstance) {
  app.addHook('onRequest', enforceEnrolment);
}

/** Registered right after the access rules: a refusal of theirs (401, 403) comes first. */
export const twoFactorEnrolment = fp(enrolmentPlugin, { name: 'two-factor-enrolment', dependencies: ['access'] });
