import { type SignupConfirmBody, SignupConfirmResult, SignupPreview } from '../../common/api/signup-confirmation';
import { api } from './client';
import { queryOptions } from '@tanstack/react-query';

/** The confirmation of a self-service sign-up (docs/decisions/067), in the application. */

const signupKeys = {
  byKey: (key: string) => ['signup-by-key', key] as const,
};

const path = (key: string) => `/signup/${encodeURIComponent(key)}`;

/** What the confirmation link shows; asked once per visit, the answer does not go stale meanwhile. */
export const signupByKeyQuery = (key: string) =>
  queryOptions({
    queryKey: signupKeys.byKey(key),
    queryFn: () => api.get(path(key), { schema: SignupPreview }),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });

/** Creates the account, its customer in trial and its membership; signs the account in. */
export const confirmSignup = (key: string, body: SignupConfirmBody) =>
  api.post(`${path(key)}/confirm`, body, { schema: SignupConfirmResult });
