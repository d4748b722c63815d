import { z } from 'zod/mini';
import { NOTIFICATION_SETTINGS, type NotificationSetting } from '../domain';
import { MEMBER_ROLES } from '../roles';
import { listOf, PageQuery } from './common';
import { NotificationSettings } from './customers';

/**
 * `PATCH /api/members/{id}/settings`: any of the eight flags, at least one; nothing else. An account
 * executive who changes their own flags changes them for every customer they are account executive of.
 */
export const UpdateNotificationSettingsBody = z
  .strictObject(
    Object.fromEntries(NOTIFICATION_SETTINGS.map((flag) => [flag, z.optional(z.boolean())])) as Record<
      NotificationSetting,
      z.ZodMiniOptional<z.ZodMiniBoolean>
    >,
  )
  .check(
    z.refine((body) => Object.values(body).some((value) => value !== undefined), {
      message: 'notificationSettings.errors.noneGiven',
    }),
  );
export type UpdateNotificationSettingsBody = z.infer<typeof UpdateNotificationSettingsBody>;

/** One membership's flags, as the settings page shows and saves them. */
export const MembershipSettings = z.object({
  membershipId: z.int(),
  customerId: z.int(),
  customerName: z.string(),
  role: z.enum(MEMBER_ROLES),
  settings: NotificationSettings,
});
export type MembershipSettings = z.infer<typeof MembershipSettings>;

/** `GET /api/members/mine`: the caller's enabled memberships with their flags, by customer name. */
export const MyMembershipsQuery = z.object({
  pageOffset: PageQuery.shape.pageOffset,
  pageLength: PageQuery.shape.pageLength,
});
export const MyMemberships = listOf(MembershipSettings);
export type MyMemberships = z.infer<typeof MyMemberships>;
