import { z } from 'zod/mini';
import { MEMBERSHIP_STATUSES } from '../domain';
import { MEMBER_ROLES } from '../roles';

/** One member of a customer (spec section 3, "Member"); `id` is the membership's. */
export const Member = z.object({
  id: z.int(),
  userId: z.int(),
  fullname: z.string(),
  email: z.string(),
  role: z.enum(MEMBER_ROLES),
  status: z.enum(MEMBERSHIP_STATUSES),
});
export type Member = z.infer<typeof Member>;

export const MemberList = z.object({ data: z.array(Member) });
export type MemberList = z.infer<typeof MemberList>;

/** `PATCH /api/members/{id}/status`: the edit form of the members modal (spec section 5: status required). */
export const UpdateMemberStatusBody = z.strictObject({ status: z.enum(MEMBERSHIP_STATUSES) });
export type UpdateMemberStatusBody = z.infer<typeof UpdateMemberStatusBody>;
