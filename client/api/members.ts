import { queryOptions } from '@tanstack/react-query';
import { Ok } from '../../common/api/common';
import {
  type CreateInvitationBody,
  Invitation,
  InvitationLink,
  InvitationList,
  type InvitationSort,
} from '../../common/api/invitations';
import { Member, MemberList, type MemberSort, type UpdateMemberStatusBody } from '../../common/api/members';
import { DEFAULT_PAGE_LENGTH } from '../../common/pagination';
import { customerKeys } from './customers';
import { api } from './client';

/** Query keys of a customer's team: under the customer's key, so reloading it reloads them. */
export const memberKeys = {
  team: (customerId: number) => [...customerKeys.one(customerId), 'team'] as const,
  members: (customerId: number) => [...memberKeys.team(customerId), 'members'] as const,
  invitations: (customerId: number) => [...memberKeys.team(customerId), 'invitations'] as const,
};

/** Members and invitations of the customer page come ten at a time. */
export const TEAM_PAGE_LENGTH = DEFAULT_PAGE_LENGTH;

/** One page of a team list: where it starts, the filter on name or e-mail, the order. */
export interface TeamPage<Sort extends string> {
  offset: number;
  filter: string;
  sort: Sort;
}

const pageQuery = <Sort extends string>(page: TeamPage<Sort>) => ({
  pageOffset: page.offset,
  pageLength: TEAM_PAGE_LENGTH,
  ...(page.filter ? { filter: page.filter } : {}),
  sort: page.sort,
});

const listMembers = (customerId: number, page: TeamPage<MemberSort>) =>
  api.get(`/customers/${customerId}/members`, { query: pageQuery(page), schema: MemberList });

export const membersQuery = (customerId: number, page: TeamPage<MemberSort>) =>
  queryOptions({
    queryKey: [...memberKeys.members(customerId), page] as const,
    queryFn: () => listMembers(customerId, page),
  });

export const updateMemberStatus = (id: number, body: UpdateMemberStatusBody) =>
  api.patch(`/members/${id}/status`, body, { schema: Member });

const listInvitations = (customerId: number, page: TeamPage<InvitationSort>) =>
  api.get('/invitations', { query: { customerId, ...pageQuery(page) }, schema: InvitationList });

export const invitationsQuery = (customerId: number, page: TeamPage<InvitationSort>) =>
  queryOptions({
    queryKey: [...memberKeys.invitations(customerId), page] as const,
    queryFn: () => listInvitations(customerId, page),
  });

export const createInvitation = (body: CreateInvitationBody, idempotencyKey?: string) =>
  api.post('/invitations', body, { schema: Invitation, idempotencyKey });

export const resendInvitation = (id: number) =>
  api.post(`/invitations/${id}/resend`, undefined, { schema: Invitation });

export const cancelInvitation = (id: number) => api.delete(`/invitations/${id}`, { schema: Ok });

export const getInvitationLink = (id: number) => api.get(`/invitations/${id}/link`, { schema: InvitationLink });
