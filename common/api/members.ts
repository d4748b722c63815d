import { z } from 'zod/mini';
import { MEMBERSHIP_STATUSES } from '../domain';
import { MAX_PAGE_LENGTH } from '../pagination';
import { MEMBER_ROLES } from '../roles';
import { MemberAbilities } from './abilities';
import { listOf, MAX_ID, PageQuery, wholeNumber } from './common';

/** One member of a customer (spec section 3, "Member"); `id` is the membership's. */
export const Member = z.object({
  id: z.int(),
  userId: z.int(),
  fullname: z.string(),
  email: z.string(),
  role: z.enum(MEMBER_ROLES),
  status: z.enum(MEMBERSHIP_STATUSES),
  /** what the caller may do with this membership (server/modules/members/policy.ts) */
  can: MemberAbilities,
});
export type Member = z.infer<typeof Member>;

/** `offset` and `total` (the count of every member matching the filter, exact) page the list. */
export const MemberList = listOf(Member);
export type MemberList = z.infer<typeof MemberList>;

/** `PATCH /api/members/{id}/status`: the edit form of the members modal (spec section 5: status required). */
export const UpdateMemberStatusBody = z.strictObject({ status: z.enum(MEMBERSHIP_STATUSES) });
export type UpdateMemberStatusBody = z.infer<typeof UpdateMemberStatusBody>;

/** Orders of the members list: by full name (the default) or by e-mail address. */
export const MEMBER_SORTS = ['name', 'email'] as const;
export type MemberSort = (typeof MEMBER_SORTS)[number];

/**
 * `GET /api/customers/{id}/members[?pageOffset&pageLength&filter&sort]`: every member unless a page
 * length is given; `filter` keeps those whose full name or e-mail address contains it, whatever the case.
 */
export const MemberListQuery = z.object({
  pageOffset: z._default(wholeNumber(0, MAX_ID), 0),
  pageLength: z.optional(wholeNumber(1, MAX_PAGE_LENGTH)),
  filter: PageQuery.shape.filter,
  sort: z._default(z.enum(MEMBER_SORTS), 'name'),
});
export type MemberListQuery = z.infer<typeof MemberListQuery>;
