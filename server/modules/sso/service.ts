import crypto from 'node:crypto';
import { SignJWT } from 'jose';
import { DEFAULT_LOCALE, isLocale, type Locale } from '../../../common/roles';
import { type Actor, actorLabel } from '../../actor';
import type { AppContext } from '../../context';
import { setupRequired } from '../two-factor/enrolment';
import * as repo from './repo';
import { deskReturnTo } from './return-to';

/** The support desk's page for signing in; the portal sends the user there with a token. */
export type HandOff =
  /** a visitor without a session: to the login page, which keeps the target (storage key sso-redirect) */
  | { kind: 'login'; location: string }
  /** a signed-in user who must first add a second factor (REQUIRE_2FA_FOR): to the settings page */
  | { kind: 'enrol'; location: string }
  /** a signed-in user: a page that posts the token to the desk's JWT endpoint */
  | { kind: 'post'; action: string; jwt: string; returnTo: string; locale: Locale }
  /** no support desk set up (no SUPPORT_JWT_SECRET): a page that says so, with the way home (409) */
  | { kind: 'unavailable'; locale: Locale };

/** The visitor's language from Accept-Language (the first of ours it names), for the login page. */
function localeOfVisitor(acceptLanguage: string | undefined): Locale {
  for (const part of (acceptLanguage ?? '').split(',')) {
    const tag = part.split(';')[0].trim().slice(0, 2).toLowerCase();
    if (isLocale(tag)) return tag;
  }
  return DEFAULT_LOCALE;
}

/**
 * The hand-off to the support desk (spec 7, /api/jwt/redirect?to=; docs/decisions/072): a short-lived
 * HS256 token naming the user (iat, exp, a unique jti kept against replay, email, name, external_id,
 * locale, organization) for the desk's JWT endpoint, and where the desk should take them (its own
 * origin only). A visitor is first sent to sign in, and comes back here afterwards.
 */
export async function supportHandOff(
  ctx: AppContext,
  actor: Actor,
  input: { to?: string; acceptLanguage?: string },
): Promise<HandOff> {
  const desk = ctx.config.supportDesk;
  if (!desk.jwtSecret) {
    const locale = actor.kind === 'user' ? actor.user.preferredLocale : localeOfVisitor(input.acceptLanguage);
    return { kind: 'unavailable', locale };
  }
  const returnTo = deskReturnTo(input.to, desk.url);
  if (actor.kind !== 'user') {
    const locale = localeOfVisitor(input.acceptLanguage);
    return { kind: 'login', location: `/${locale}/login?sso=${encodeURIComponent(returnTo)}` };
  }
  const { user } = actor;
  // The second factor applies to every way in: a user REQUIRE_2FA_FOR names gets no token before enrolling.
  if (await setupRequired(ctx, user)) return { kind: 'enrol', location: `/${user.preferredLocale}/settings` };
  const issuedAt = Math.floor(Date.now() / 1000);
  const expiresAt = issuedAt + desk.jwtLifetimeSeconds;
  const jti = crypto.randomUUID();
  await repo.insertJwtId(ctx.db, {
    jti,
    userId: user.id,
    issuedAt: new Date(issuedAt * 1000).toISOString(),
    expiresAt: new Date(expiresAt * 1000).toISOString(),
  });
  const organization = await repo.firstCustomerNameOf(ctx.db, user.id);
  const jwt = await new SignJWT({
    email: user.email,
    name: user.fullName,
    external_id: String(user.id),
    locale: user.preferredLocale,
    ...(organization ? { organization } : {}),
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .setJti(jti)
    .sign(new TextEncoder().encode(desk.jwtSecret));
  // The token itself never reaches a log: its id is enough to follow a hand-off.
  ctx.log.info({ jti, actor: actorLabel(actor) }, 'support desk hand-off');
  return { kind: 'post', action: desk.jwtUrl, jwt, returnTo, locale: user.preferredLocale };
}

/** Forgets the ids of expired tokens (a schedule of server/jobs): an expired token opens nothing. */
export async function purgeExpiredSupportJwtIds(ctx: AppContext, now = Date.now()): Promise<number> {
  return repo.deleteExpiredJwtIds(ctx.db, new Date(now).toISOString());
}
