import Provider, { type ClientInfo, type KoaContextWithOIDC } from 'oidc-provider';
import { SESSION_COOKIE, SESSION_IDLE_TIMEOUT_MS } from '../../../common/constants';
import type { AppContext } from '../../context';
import { endSessionByCookie } from '../sessions/service';
import { findAccount, OIDC_CLAIMS } from './account';
import { kyselyAdapter } from './adapter';
import type { OidcClientConfig } from './clients-config';
import { logoutSource, postLogoutSuccessSource, renderError } from './pages';
import { providerJwks } from './signing-keys';

/** Where the provider is mounted; its issuer is BASE_URL followed by this. */
export const OIDC_PREFIX = '/oidc';

/** Explicit lifetimes, in seconds (docs/oidc.md). */
const OIDC_TTL = {
  AuthorizationCode: 60,
  AccessToken: 10 * 60,
  IdToken: 60 * 60,
  RefreshToken: 14 * 24 * 60 * 60,
  Grant: 14 * 24 * 60 * 60,
  Interaction: 60 * 60,
  // never longer than a portal session stays idle: the provider's session leans on the portal's
  Session: SESSION_IDLE_TIMEOUT_MS / 1000,
} as const;

const SCOPES = ['openid', 'offline_access', 'email', 'profile', 'portal'];

/** A configured client as the provider's client metadata: confidential with a secret, else public. */
function clientMetadata(client: OidcClientConfig) {
  const confidential = client.client_secret !== undefined;
  return {
    client_id: client.client_id,
    ...(confidential ? { client_secret: client.client_secret } : {}),
    ...(client.client_name ? { client_name: client.client_name } : {}),
    redirect_uris: client.redirect_uris,
    post_logout_redirect_uris: client.post_logout_redirect_uris,
    response_types: ['code'],
    grant_types: confidential ? ['authorization_code', 'refresh_token'] : ['authorization_code'],
    token_endpoint_auth_method: confidential ? 'client_secret_basic' : 'none',
  };
}

export function isFirstParty(ctx: AppContext, clientId: string | undefined): boolean {
  return ctx.config.oidc.clients.some((c) => c.client_id === clientId && c.first_party);
}

/** A browser page of one of the client's own origins may call the token and userinfo endpoints. */
function clientBasedCORS(_koa: unknown, origin: string, client: ClientInfo): boolean {
  return [...client.redirectUris, ...(client.postLogoutRedirectUris ?? [])].some(
    (uri) => new URL(uri).origin === origin,
  );
}

/**
 * First-party clients get their grant without a consent page (decision 070): every scope they ask
 * for, on the existing grant or a new one. Others keep the grant the user consented to.
 */
async function loadExistingGrant(ctx: AppContext, koa: KoaContextWithOIDC & { oidc: any }) {
  const { provider, client, session, result } = koa.oidc;
  const grantId = result?.consent?.grantId || session.grantIdFor(client.clientId);
  const grant = grantId ? await provider.Grant.find(grantId) : undefined;
  if (!isFirstParty(ctx, client.clientId)) return grant;
  const firstParty = grant ?? new provider.Grant({ clientId: client.clientId, accountId: session.accountId });
  firstParty.addOIDCScope([...koa.oidc.requestParamScopes].filter((s: string) => SCOPES.includes(s)).join(' '));
  await firstParty.save();
  return firstParty;
}

/**
 * The provider, configured for the portal (docs/oidc.md): its state in the database, the signing
 * keys kept there, the configured clients, the portal's pages and sign-in. Built once per app.
 */
export async function createProvider(ctx: AppContext): Promise<Provider> {
  const { config } = ctx;
  const provider = new Provider(`${config.baseUrl}${OIDC_PREFIX}`, {
    adapter: kyselyAdapter(ctx.db),
    clients: config.oidc.clients.map(clientMetadata),
    jwks: await providerJwks(ctx),
    cookies: {
      keys: config.oidc.cookieKeys,
      long: { signed: true, secure: config.secureCookies, sameSite: 'lax' },
      short: { signed: true, secure: config.secureCookies, sameSite: 'lax' },
    },
    findAccount: (_koa: unknown, sub: string) => findAccount(ctx, sub),
    claims: OIDC_CLAIMS,
    scopes: SCOPES,
    responseTypes: ['code'],
    pkce: { required: (_koa: unknown, client: ClientInfo) => client.clientAuthMethod === 'none' },
    issueRefreshToken: async (_koa: unknown, client: ClientInfo) =>
      client.clientAuthMethod !== 'none' && client.grantTypeAllowed('refresh_token'),
    // Every refresh of a confidential client's token gives a new one and consumes the old: a used
    // refresh token is refused, and presenting it again revokes the grant (a sign it was stolen).
    // Public clients get none (issueRefreshToken above).
    rotateRefreshToken: true,
    ttl: OIDC_TTL,
    interactions: {
      url: (_koa: unknown, interaction: { uid: string }) => `${OIDC_PREFIX}/interaction/${interaction.uid}`,
    },
    loadExistingGrant: (koa: KoaContextWithOIDC & { oidc: any }) => loadExistingGrant(ctx, koa),
    clientBasedCORS,
    renderError,
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      rpInitiatedLogout: { enabled: true, logoutSource, postLogoutSuccessSource },
    },
  });
  provider.proxy = config.trustProxy !== false;
  // Signing out of the provider signs out of the portal too: the portal's session would otherwise
  // sign the user straight back in at the next authorization request.
  provider.on('end_session.success', (koa: KoaContextWithOIDC) => {
    const raw = koa.cookies.get(SESSION_COOKIE);
    if (!raw) return;
    koa.cookies.set(SESSION_COOKIE, null, { path: '/', httpOnly: true, sameSite: 'lax', secure: config.secureCookies });
    endSessionByCookie(ctx, raw).catch((error: Error) =>
      ctx.log.warn({ reason: error.message }, 'the portal session could not be ended after an OpenID Connect logout'),
    );
  });
  provider.on('server_error', (_koa: unknown, error: Error) =>
    ctx.log.error({ reason: error.message }, 'OpenID Connect provider error'),
  );
  return provider;
}
