import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as client from 'openid-client';

/**
 * A small relying party for the journeys (docs/oidc.md): a local HTTP server using openid-client
 * against the worker's portal. `/login` (or `/partner/login`) starts the code flow with PKCE,
 * `/callback` finishes it and says who signed in, `/logout` starts the RP-initiated logout.
 */

export const RP_PORTS = [47911, 47912, 47913, 47914];
const RP_SECRET = 'e2e-relying-party-secret-0123456789abcdef';

const uris = (suffix: string) => RP_PORTS.map((port) => `http://127.0.0.1:${port}${suffix}`);

/** The portal's clients in the journeys: the relying party's first-party client and a partner's public one. */
export const E2E_OIDC_CLIENTS = JSON.stringify([
  {
    client_id: 'e2e-academy',
    client_secret: RP_SECRET,
    client_name: 'Academy',
    redirect_uris: uris('/callback'),
    post_logout_redirect_uris: uris('/signed-out'),
    first_party: true,
  },
  {
    client_id: 'e2e-partner',
    client_name: 'Partner console',
    redirect_uris: uris('/partner/callback'),
    post_logout_redirect_uris: uris('/signed-out'),
  },
]);

export interface RelyingParty {
  url: string;
  close(): Promise<void>;
}

const page = (title: string, body: string) =>
  `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

export async function startRelyingParty(portalUrl: string, port: number): Promise<RelyingParty> {
  const base = `http://127.0.0.1:${port}`;
  const options = { execute: [client.allowInsecureRequests] };
  const academy = await client.discovery(
    new URL(`${portalUrl}/oidc`),
    'e2e-academy',
    undefined,
    client.ClientSecretBasic(RP_SECRET),
    options,
  );
  const partner = await client.discovery(
    new URL(`${portalUrl}/oidc`),
    'e2e-partner',
    undefined,
    client.None(),
    options,
  );
  const pending = new Map<string, { verifier: string; partner: boolean }>();
  let lastIdToken = '';

  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', base);
    const send = (status: number, html: string, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
      response.end(html);
    };
    void (async () => {
      const isPartner = url.pathname.startsWith('/partner/');
      const config = isPartner ? partner : academy;
      if (url.pathname.endsWith('/login')) {
        const verifier = client.randomPKCECodeVerifier();
        const state = client.randomState();
        pending.set(state, { verifier, partner: isPartner });
        const target = client.buildAuthorizationUrl(config, {
          redirect_uri: `${base}${isPartner ? '/partner' : ''}/callback`,
          scope: 'openid email profile portal',
          code_challenge: await client.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
          state,
          ui_locales: url.searchParams.get('locale') ?? 'en',
        });
        return send(302, '', { location: target.href });
      }
      if (url.pathname.endsWith('/callback')) {
        const state = url.searchParams.get('state') ?? '';
        const flow = pending.get(state);
        if (!flow) return send(400, page('Unknown sign-in', ''));
        pending.delete(state);
        const tokens = await client.authorizationCodeGrant(config, url, {
          pkceCodeVerifier: flow.verifier,
          expectedState: state,
        });
        lastIdToken = tokens.id_token ?? '';
        const info = await client.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub);
        return send(200, page('Signed in', `<p data-testid="rp-user">${String(info.email)}</p>`));
      }
      if (url.pathname === '/logout') {
        const target = client.buildEndSessionUrl(academy, {
          id_token_hint: lastIdToken,
          post_logout_redirect_uri: `${base}/signed-out`,
          state: 'bye',
          ui_locales: url.searchParams.get('locale') ?? 'en',
        });
        return send(302, '', { location: target.href });
      }
      if (url.pathname === '/signed-out')
        return send(200, page('Signed out of the relying party', `<p>${url.search}</p>`));
      return send(404, page('Not found', ''));
    })().catch((error: Error) => send(500, page('Relying party error', `<pre>${error.message}</pre>`)));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
