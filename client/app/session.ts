import { hashKey, type QueryClient, useQuery } from '@tanstack/react-query';
import type { Profile } from '../../common/api/auth';
import { STORAGE_KEYS } from '../../common/constants';
import { authKeys, configQuery, profileQuery } from '../api/auth';
import { ApiError } from '../api/client';
import { toastHistory } from '../components/notify';
import { storage } from './storage';

export const PROFILE_KEY = authKeys.profile;
export const CONFIG_KEY = authKeys.config;

export function useProfile() {
  return useQuery(profileQuery());
}

export function useConfig() {
  return useQuery(configQuery());
}

export function setProfile(queryClient: QueryClient, profile: Profile | null): void {
  queryClient.setQueryData(PROFILE_KEY, profile);
}

/**
 * Spec 4 "Logout": forget the stored customer and redirect, and every cached list of the old user.
 * The profile is set to null in place rather than removed: components showing it (the top bar) watch
 * that query, and a removed query tells its watchers nothing, so they would go on showing the old user.
 */
export function forgetSession(queryClient: QueryClient): void {
  storage.remove(STORAGE_KEYS.customer);
  storage.remove(STORAGE_KEYS.redirect);
  void queryClient.cancelQueries({ queryKey: PROFILE_KEY });
  setProfile(queryClient, null);
  queryClient.removeQueries({
    predicate: (query) => query.queryKey[0] !== CONFIG_KEY[0] && query.queryHash !== hashKey(PROFILE_KEY),
  });
  // Submitted forms stay in the mutation cache for a while: the last password typed must not.
  queryClient.getMutationCache().clear();
  toastHistory.clear();
}

/** No retry for answers the server meant (4xx); one for network trouble and server errors. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 1;
}
