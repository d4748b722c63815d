import { z } from 'zod';
import { LOCALES, STAFF_TYPES, USER_STATUSES, USER_TYPES } from '../roles';
import { Email, PageQuery, RequiredText } from './common';

export const User = z.object({
  id: z.number().int(),
  fullname: z.string(),
  email: z.string(),
  type: z.enum(USER_TYPES),
  status: z.enum(USER_STATUSES),
  preferredLocale: z.enum(LOCALES),
});
export type User = z.infer<typeof User>;

export const UserListQuery = PageQuery;
export type UserListQuery = z.infer<typeof UserListQuery>;

export const UserList = z.object({
  results: z.array(User),
  pageOffset: z.number().int(),
  pageLength: z.number().int(),
  totalHits: z.number().int(),
  /** true when there are more than totalHits users: the count stops there (common/pagination countCap) */
  totalHitsCapped: z.boolean(),
});
export type UserList = z.infer<typeof UserList>;

/** New users are enabled; defaults type admin, locale en (spec section 5). Only staff types. */
export const CreateUserBody = z
  .object({
    email: Email,
    fullname: RequiredText(200),
    type: z.enum(STAFF_TYPES).default('admin'),
    preferredLocale: z.enum(LOCALES).default('en'),
  })
  .strict();
export type CreateUserBody = z.infer<typeof CreateUserBody>;

export const UpdateUserBody = z
  .object({
    email: Email,
    fullname: RequiredText(200),
    status: z.enum(USER_STATUSES),
    preferredLocale: z.enum(LOCALES),
  })
  .partial()
  .strict();
export type UpdateUserBody = z.infer<typeof UpdateUserBody>;
