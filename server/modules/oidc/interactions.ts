import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { InteractionDetails as Details } from 'oidc-provider';
import type { InteractionDetails } from '../../../common/api/oidc';
import type { Locale } from '../../../common/roles';
import type { SessionUser } from '../../actor';
import type { AppContext } from '../../context';
import { setupRequired } from '../two-factor/enrolment';
import { isFirstParty } from './provider';

/**
 * What the portal does at each step of an interaction (docs/oidc.md, decision 070). The provider
 * keeps the interaction under a cookie scoped to its address; the portal's session decides who
 * signs in: a session exists only once sign-in is complete (any second factor included), so the
 * provider inherits it.
 */

export interface RawExchange {
  req: IncomingMessage;
  res: ServerResponse;
}

/** The interaction the browser's cookie names, if it is the one in the address; null otherwise. */
export async function currentInteraction(provider: Provider, raw: RawExchange, uid: string): Promise<Details | null> {
  try {
    const details = await provider.interactionDetails(raw.req, raw.res);
    return details.uid === uid ? details : null;
  } catch {
    // no interaction cookie, an expired interaction, a cookie signed with another key
    return null;
  }
}

type Step = { redirect: string };

/** Grants what a consent prompt lists as missing, on the interaction's grant or a new one. */
async function grantMissing(provider: Provider, details: Details, accountId: string): Promise<string> {
  const grant =
    (details.grantId ? await provider.Grant.find(details.grantId) : undefined) ??
    new provider.Grant({ accountId, clientId: String(details.params.client_id) });
  const missing = details.prompt.details as {
    missingOIDCScope?: string[];
    missingOIDCClaims?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
    grant.addResourceScope(indicator, scopes.join(' '));
  }
  return grant.save();
}

/**
 * The interaction endpoint: sign in with the portal's session (or go to the portal's login page,
 * keeping the interaction), then consent: implicit for first-party clients, the portal's consent
 * page for the others.
 */
export async function advance(
  ctx: AppContext,
  provider: Provider,
  raw: RawExchange,
  details: Details,
  user: SessionUser | null,
  locale: Locale,
): Promise<Step> {
  const page = (path: string) => ({ redirect: `/${locale}/${path}?interaction=${encodeURIComponent(details.uid)}` });
  if (!user) return page('login');
  // A user REQUIRE_2FA_FOR names signs in nowhere else before adding a second factor: the
  // interaction stays unfinished, and the relying party asks again afterwards.
  if (await setupRequired(ctx, user)) return { redirect: `/${locale}/settings` };
  const accountId = String(user.id);
  if (details.prompt.name === 'login' || details.session?.accountId !== accountId) {
    // A different portal user than the provider's session knew: this one signs in.
    return {
      redirect: await provider.interactionResult(
        raw.req,
        raw.res,
        { login: { accountId } },
        { mergeWithLastSubmission: false },
      ),
    };
  }
  if (details.prompt.name === 'consent' && !isFirstParty(ctx, details.params.client_id)) return page('consent');
  return consent(provider, raw, details, accountId);
}

/** The consent page's answer, or a first-party client's implicit consent. */
export async function consent(
  provider: Provider,
  raw: RawExchange,
  details: Details,
  accountId: string,
): Promise<Step> {
  const grantId = await grantMissing(provider, details, accountId);
  const result = { consent: details.grantId ? {} : { grantId } };
  return { redirect: await provider.interactionResult(raw.req, raw.res, result, { mergeWithLastSubmission: true }) };
}

export async function refuse(provider: Provider, raw: RawExchange): Promise<Step> {
  const result = { error: 'access_denied', error_description: 'The user refused the request' };
  return { redirect: await provider.interactionResult(raw.req, raw.res, result, { mergeWithLastSubmission: false }) };
}

/** What the consent page shows: the client and the scopes it asks for. */
export async function describe(provider: Provider, details: Details): Promise<InteractionDetails> {
  const clientId = String(details.params.client_id ?? '');
  const client = await provider.Client.find(clientId);
  const missing = (details.prompt.details as { missingOIDCScope?: string[] }).missingOIDCScope;
  const scopes =
    missing ??
    String(details.params.scope ?? '')
      .split(' ')
      .filter(Boolean);
  return { uid: details.uid, clientId, clientName: client?.clientName ?? clientId, scopes };
}
