import { queryOptions } from '@tanstack/react-query';
import { Ok } from '../../common/api/common';
import { type CreateInvitationBody, Invitation, InvitationLink, InvitationList } from '../../common/api/invitations';
import { Member, MemberList, type UpdateMemberStatusBody } from '../../common/api/members';
import { customerKeys } from './customers';
import { api } from './client';

/** Query keys of a customer's team: under the customer's key, so reloading it reloads them. */
export const memberKeys = {
  team: (customerId: number) => [...customerKeys.one(customerId), 'team'] as const,
  members: (customerId: number) => [...memberKeys.team(customerId), 'members'] as const,
  invitations: (customerId: number) => [...memberKeys.team(customerId), 'invitations'] as const,
};

export const listMembers = (customerId: number) => api.get(`/customers/${customerId}/members`, { schema: MemberList });

export const membersQuery = (customerId: number) =>
  queryOptions({ queryKey: memberKeys.members(customerId), queryFn: () => listMembers(customerId) });

export const updateMemberStatus = (id: number, body: UpdateMemberStatusBody) =>
  api.patch(`/members/${id}/status`, body, { schema: Member });

export const listInvitations = (customerId: number) =>
  api.get('/invitations', { query: { customerId }, schema: InvitationList });

export const invitationsQuery = (customerId: number) =>
  queryOptions({ queryKey: memberKeys.invitations(customerId), queryFn: () => listInvitations(customerId) });

export const createInvitation = (body: CreateInvitationBody, idempotencyKey?: string) =>
  api.post('/invitations', body, { schema: Invitation, idempotencyKey });

export const resendInvitation = (id: number) =>
  api.post(`/invitations/${id}/resend`, undefined, { schema: Invitation });

export const cancelInvitation = (id: number) => api.delete(`/invitations/${id}`, { schema: Ok });

export const getInvitationLink = (id: number) => api.get(`/invitations/${id}/link`, { schema: InvitationLink });
