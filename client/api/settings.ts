import { queryOptions } from '@tanstack/react-query';
import type { NotificationSettings } from '../../common/api/customers';
import { MembershipSettings, MyMemberships } from '../../common/api/settings';
import { api } from './client';

/** Query keys of the signed-in user's memberships and their notification flags. */
export const membershipKeys = {
  mine: ['memberships', 'mine'] as const,
  minePage: (offset: number, pageLength: number) => ['memberships', 'mine', offset, pageLength] as const,
};

const listMyMemberships = (offset: number, pageLength: number) =>
  api.get('/members/mine', { query: { pageOffset: offset, pageLength }, schema: MyMemberships });

export const myMembershipsQuery = (offset: number, pageLength: number) =>
  queryOptions({
    queryKey: membershipKeys.minePage(offset, pageLength),
    queryFn: () => listMyMemberships(offset, pageLength),
  });

export const updateNotificationSettings = (membershipId: number, body: Partial<NotificationSettings>) =>
  api.patch(`/members/${membershipId}/settings`, body, { schema: MembershipSettings });
