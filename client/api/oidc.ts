import { InteractionDetails, InteractionOutcome } from '../../common/api/oidc';
import { ApiError } from './client';

/**
 * The portal's calls to its OpenID Connect provider (docs/oidc.md): the consent page's, under
 * /oidc/interaction (the portal's own routes, in its one error body), and the logout handshake of
 * spec 4 and 7, with the provider itself.
 */

async function call<T>(method: 'GET' | 'POST', path: string, schema: { parse: (value: unknown) => T }): Promise<T> {
  const response = await fetch(path, { method, credentials: 'same-origin', headers: { accept: 'application/json' } });
  if (!response.ok) throw new ApiError(response.status, 'http_error', response.statusText || `HTTP ${response.status}`);
  return schema.parse(await response.json());
}

const interaction = (uid: string) => `/oidc/interaction/${encodeURIComponent(uid)}`;

export const getInteraction = (uid: string) => call('GET', `${interaction(uid)}/details`, InteractionDetails);
export const grantInteraction = (uid: string) => call('POST', `${interaction(uid)}/confirm`, InteractionOutcome);
export const refuseInteraction = (uid: string) => call('POST', `${interaction(uid)}/abort`, InteractionOutcome);

/**
 * Spec 4 and 7: `GET /oidc/session/end` for the xsrf value, then `POST /oidc/session/end/confirm`
 * with it and `logout`, form-encoded; the provider's session ends. Without a provider session there
 * is nothing to end (no xsrf value comes back); any failure is ignored, as the spec says.
 */
export async function endProviderSession(): Promise<void> {
  try {
    const question = await fetch('/oidc/session/end', {
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
    });
    if (!question.ok || !question.headers.get('content-type')?.includes('json')) return;
    const { xsrf } = (await question.json()) as { xsrf?: unknown };
    if (typeof xsrf !== 'string') return;
    await fetch('/oidc/session/end/confirm', {
      method: 'POST',
      credentials: 'same-origin',
      // the answer sends the browser on (303); the portal's own page says the rest
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ xsrf, logout: 'yes' }).toString(),
    });
  } catch {
    // the portal's own sign-out goes on
  }
}
