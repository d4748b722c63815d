import type { MemberAbilities } from '../../../common/api/abilities';
import type { MemberRole } from '../../../common/roles';
import { type Caller, holds, isSelf, offers, type CustomerAccess } from '../../policy';

/**
 * Who may change a membership's status (spec sections 4 and 6): nobody their own; otherwise a caller
 * who sees the team and could give the member's role (a project manager does not disable the
 * customer's account executive).
 */
export const mayChangeStatus = (
  caller: Pick<Caller, 'id'>,
  access: Pick<CustomerAccess, 'role'>,
  member: { userId: number; role: MemberRole },
): boolean => holds(access, 'viewTeam') && !isSelf(caller, member.userId) && offers(access, member.role);

/** A membership's notification flags: the member themself, or who sees the customer's team. */
export const mayEditSettings = (
  caller: Pick<Caller, 'id'>,
  access: Pick<CustomerAccess, 'role'>,
  member: { userId: number },
): boolean => isSelf(caller, member.userId) || holds(access, 'viewTeam');

export function memberAbilities(
  caller: Pick<Caller, 'id'>,
  access: Pick<CustomerAccess, 'role'>,
  member: { userId: number; role: MemberRole },
): MemberAbilities {
  return {
    changeStatus: mayChangeStatus(caller, access, member),
    editSettings: mayEditSettings(caller, access, member),
  };
}
