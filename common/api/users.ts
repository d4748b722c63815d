import { z } from 'zod/mini';
import { LOCALES, STAFF_TYPES, USER_STATUSES, USER_TYPES } from '../roles';
import { UserAbilities } from './abilities';
import { Email, PageQuery, RequiredText } from './common';

export const UserTwoFactor = z.object({ passkeys: z.int(), authenticator: z.boolean() });
export type UserTwoFactor = z.infer<typeof UserTwoFactor>;

export const User = z.object({
  id: z.int(),
  fullname: z.string(),
  email: z.string(),
  type: z.enum(USER_TYPES),
  status: z.enum(USER_STATUSES),
  preferredLocale: z.enum(LOCALES),
  /** what the caller may do with the account (server/modules/users/policy.ts) */
  can: UserAbilities,
  /** the account's second factors (docs/decisions/071): how many passkeys, whether an authenticator app */
  twoFactor: UserTwoFactor,
});
export type User = z.infer<typeof User>;

export const UserListQuery = PageQuery;
export type UserListQuery = z.infer<typeof UserListQuery>;

export const UserList = z.object({
  results: z.array(User),
  pageOffset: z.int(),
  pageLength: z.int(),
  totalHits: z.int(),
  /** true when there are more than totalHits users: the count stops there (common/pagination countCap) */
  totalHitsCapped: z.boolean(),
});
export type UserList = z.infer<typeof UserList>;

/** New users are enabled; defaults type admin, locale en (spec section 5). Only staff types. */
export const CreateUserBody = z.strictObject({
  email: Email,
  fullname: RequiredText(200),
  type: z._default(z.enum(STAFF_TYPES), 'admin'),
  preferredLocale: z._default(z.enum(LOCALES), 'en'),
});
export type CreateUserBody = z.infer<typeof CreateUserBody>;

export const UpdateUserBody = z.partial(
  z.strictObject({
    email: Email,
    fullname: RequiredText(200),
    status: z.enum(USER_STATUSES),
    preferredLocale: z.enum(LOCALES),
  }),
);
export type UpdateUserBody = z.infer<typeof UpdateUserBody>;
