import { createContext, type ReactNode, useContext, useEffect, useState } from 'react';
import type { Profile, PublicConfig } from '../../common/api/auth';
import { STORAGE_KEYS } from '../../common/constants';
import { INTERACTION_UID } from '../../common/api/oidc';
import { isSafeLocalPath, localizePath, loginTarget, toBarePath } from '../app/routing';
import { storage } from '../app/storage';

/** A call's answer as a page reads it: pending, its data, or its error. */
export interface Settled<T> {
  pending: boolean;
  data?: T;
  error?: unknown;
}

export interface PublicSession {
  /** The visitor's session: null without one. */
  profile: Promise<Profile | null>;
  config: Promise<PublicConfig>;
}

const SessionContext = createContext<PublicSession | null>(null);

export function PublicSessionProvider({ session, children }: { session: PublicSession; children: ReactNode }) {
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

const settled = new WeakMap<Promise<unknown>, Settled<unknown>>();

function useSettled<T>(promise: Promise<T>): Settled<T> {
  const [state, setState] = useState<Settled<T>>(() => (settled.get(promise) as Settled<T>) ?? { pending: true });
  useEffect(() => {
    let current = true;
    promise.then(
      (data) => {
        settled.set(promise, { pending: false, data });
        if (current) setState({ pending: false, data });
      },
      (error: unknown) => {
        settled.set(promise, { pending: false, error });
        if (current) setState({ pending: false, error });
      },
    );
    return () => {
      current = false;
    };
  }, [promise]);
  return state;
}

function useSession(): PublicSession {
  const session = useContext(SessionContext);
  if (!session) throw new Error('The sign-in pages need a PublicSessionProvider');
  return session;
}

/** The public configuration (captcha, support address), asked for when the page started loading. */
export function usePublicConfig(): Settled<PublicConfig> {
  return useSettled(useSession().config);
}

export function usePublicProfile(): Settled<Profile | null> {
  return useSettled(useSession().profile);
}

/** A call a form makes (sign in, ask for a link): its state, and what to do with its answer. */
export function useAction<Input, Output>(
  call: (input: Input) => Promise<Output>,
  handlers: {
    onSuccess?: (output: Output) => void;
    onError?: (error: unknown) => void;
    onSettled?: () => void;
  } = {},
) {
  const [state, setState] = useState<Settled<Output> & { idle: boolean }>({ idle: true, pending: false });
  function run(input: Input) {
    setState({ idle: false, pending: true });
    call(input).then(
      (data) => {
        setState({ idle: false, pending: false, data });
        handlers.onSuccess?.(data);
        handlers.onSettled?.();
      },
      (error: unknown) => {
        setState({ idle: false, pending: false, error });
        handlers.onError?.(error);
        handlers.onSettled?.();
      },
    );
  }
  const succeeded = !state.idle && !state.pending && state.error === undefined;
  return { run, pending: state.pending, error: state.error, data: state.data, succeeded };
}

/** An OpenID Connect interaction the address keeps (`?interaction=<uid>`, docs/oidc.md), if well formed. */
export function interactionOf(search: string): string | null {
  const uid = new URLSearchParams(search).get('interaction');
  return uid !== null && INTERACTION_UID.test(uid) ? uid : null;
}

/** Spec 4 "Login success", first: back to the provider's interaction, which returns to the relying party. */
function oidcReturnTarget(search: string): string | null {
  const uid = interactionOf(search);
  return uid ? `/oidc/interaction/${uid}` : null;
}

/**
 * Spec 4 "Login success", in its order: the OIDC return target, the stored SSO redirect (the support
 * site), then the stored or given path and the user's start page.
 */
export function loginSuccessTarget(profile: Profile, search: string, ssoRedirect: string | null): string {
  return oidcReturnTarget(search) ?? (ssoRedirect ? ssoRedirectUrl(ssoRedirect) : signedInTarget(profile, search));
}

/** Where a sign-in for the support site goes once the session exists (spec 4, SSO return target). */
function ssoRedirectUrl(target: string): string {
  return `/api/jwt/redirect?to=${encodeURIComponent(target)}`;
}

/**
 * Where a signed-in visitor of a sign-in page goes: the OIDC return target, else the `redirect`
 * parameter if it is a local path, else the user's start page.
 */
export function signedInTarget(profile: Profile, search: string): string {
  const oidc = oidcReturnTarget(search);
  if (oidc) return oidc;
  const requested = new URLSearchParams(search).get('redirect');
  const target = isSafeLocalPath(requested)
    ? toBarePath(requested)
    : loginTarget({
        type: profile.type,
        storedRedirect: storage.get(STORAGE_KEYS.redirect),
        storedCustomer: storage.get(STORAGE_KEYS.customer),
        accounts: { ids: profile.accounts.map((a) => a.id), total: profile.accountsTotal },
      });
  return localizePath(profile.preferredLocale, target);
}
