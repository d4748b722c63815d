import { queryOptions } from '@tanstack/react-query';
import {
  AcceptInvitationResult,
  type AcceptNewInvitationBody,
  InvitationPreview,
} from '../../common/api/invitation-acceptance';
import { api } from './client';

/** Query keys of an invitation as its link shows it. */
const invitationAcceptanceKeys = {
  all: ['invitation-by-key'] as const,
  byKey: (key: string) => ['invitation-by-key', key] as const,
};

const path = (key: string) => `/invitations/${encodeURIComponent(key)}`;

const getInvitationByKey = (key: string) => api.get(path(key), { schema: InvitationPreview });

/** Asked once per visit of the page: an answer does not go stale while the visitor reads it. */
export const invitationByKeyQuery = (key: string) =>
  queryOptions({
    queryKey: invitationAcceptanceKeys.byKey(key),
    queryFn: () => getInvitationByKey(key),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });

/** Creates the invited address's account and signs it in. */
export const acceptAsNewUser = (key: string, body: AcceptNewInvitationBody) =>
  api.post(`${path(key)}/new`, body, { schema: AcceptInvitationResult });

/** The signed-in user joins; the invitation must have been sent to their address. */
export const acceptAsExistingUser = (key: string) =>
  api.post(`${path(key)}/existing`, {}, { schema: AcceptInvitationResult });
