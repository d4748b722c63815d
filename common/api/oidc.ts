import { z } from 'zod/mini';

/**
 * The portal's side of the OpenID Connect provider's interactions (docs/oidc.md): the consent page
 * reads what a relying party asks for, then grants or refuses it; the provider continues at the
 * address the answer gives.
 */

/** An interaction's uid, as the provider makes them (21 URL-safe characters); checked before any lookup. */
export const INTERACTION_UID = /^[A-Za-z0-9_-]{10,64}$/;

export const InteractionParams = z.object({ uid: z.string().check(z.regex(INTERACTION_UID)) });
export type InteractionParams = z.infer<typeof InteractionParams>;

/** The scopes the consent page names; others are shown by their name. */
export const CONSENT_SCOPES = ['openid', 'email', 'profile', 'portal', 'offline_access'] as const;

export const InteractionDetails = z.object({
  uid: z.string(),
  clientId: z.string(),
  /** the client's name, or its id when it has none */
  clientName: z.string(),
  /** what the client asks for and does not hold yet */
  scopes: z.array(z.string()),
});
export type InteractionDetails = z.infer<typeof InteractionDetails>;

/** Where the browser goes next: back into the provider, which sends it on to the relying party. */
export const InteractionOutcome = z.object({ location: z.string() });
export type InteractionOutcome = z.infer<typeof InteractionOutcome>;
