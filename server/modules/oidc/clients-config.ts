import crypto from 'node:crypto';
import { z } from 'zod';

/**
 * The relying parties of the OpenID Connect provider (OIDC_CLIENTS, docs/oidc.md): a JSON array,
 * checked at start by server/config.ts. A client with a secret is confidential (it authenticates at the
 * token endpoint and gets refresh tokens); one without is public and must use PKCE.
 */
const OidcClientSchema = z
  .object({
    client_id: z.string().regex(/^[A-Za-z0-9._~-]{1,100}$/, 'must be 1 to 100 letters, digits or . _ ~ -'),
    client_secret: z.string().min(32, 'must be at least 32 characters').max(500).optional(),
    client_name: z.string().trim().min(1).max(100).optional(),
    redirect_uris: z.array(z.url()).min(1, 'needs at least one redirect URI'),
    post_logout_redirect_uris: z.array(z.url()).default([]),
    first_party: z.boolean().default(false),
  })
  .strict();

export type OidcClientConfig = z.infer<typeof OidcClientSchema>;

export interface OidcConfig {
  clients: OidcClientConfig[];
  /** the keys that sign the provider's cookies, newest first (OIDC_COOKIE_KEYS, or derived from SESSION_SECRET) */
  cookieKeys: string[];
}

const isLoopback = (url: string) => ['localhost', '127.0.0.1', '[::1]'].includes(new URL(url).hostname);

/** The problems of OIDC_CLIENTS, as `index.field: message` lines; the clients when there are none. */
export function parseOidcClients(
  raw: string | undefined,
  production: boolean,
): { clients: OidcClientConfig[] } | { problems: string[] } {
  if (!raw || raw.trim() === '') return { clients: [] };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { problems: ['must be a JSON array of clients (docs/oidc.md)'] };
  }
  const parsed = z.array(OidcClientSchema).safeParse(json);
  if (!parsed.success) {
    return { problems: parsed.error.issues.map((i) => `${i.path.join('.') || '(the array)'}: ${i.message}`) };
  }
  const problems: string[] = [];
  const seen = new Set<string>();
  parsed.data.forEach((client, n) => {
    if (seen.has(client.client_id)) problems.push(`${n}.client_id: ${client.client_id} is given twice`);
    seen.add(client.client_id);
    const uris = [...client.redirect_uris, ...client.post_logout_redirect_uris];
    for (const uri of uris) {
      const { protocol, hash } = new URL(uri);
      if (hash) problems.push(`${n}: ${uri} must not have a fragment`);
      // Codes and tokens travel to these addresses: over plain HTTP only to the machine itself.
      if (production && protocol !== 'https:' && !isLoopback(uri)) {
        problems.push(`${n}: ${uri} must be https:// in production`);
      }
    }
  });
  return problems.length > 0 ? { problems } : { clients: parsed.data };
}

/**
 * OIDC_COOKIE_KEYS (comma-separated, newest first: older ones still verify cookies during a
 * rotation), or else one key derived from each server secret (SESSION_SECRET, then
 * SESSION_SECRET_PREVIOUS), so a new secret also renews them and the previous ones still verify.
 */
export function oidcCookieKeys(raw: string | undefined, serverSecrets: readonly string[]): string[] {
  const given = (raw ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter(Boolean);
  if (given.length > 0) return given;
  return serverSecrets.map((secret) =>
    Buffer.from(crypto.hkdfSync('sha256', secret, 'oidc-cookie-keys', 'portal oidc cookies', 32)).toString('base64url'),
  );
}

/** Every origin a client's page may be sent to after a form post (the /oidc pages' form-action). */
export function clientOrigins(clients: OidcClientConfig[]): string[] {
  const origins = new Set<string>();
  for (const client of clients) {
    for (const uri of [...client.redirect_uris, ...client.post_logout_redirect_uris]) origins.add(new URL(uri).origin);
  }
  return [...origins];
}
