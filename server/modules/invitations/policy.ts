import type { InvitationAbilities } from '../../../common/api/abilities';
import type { MemberRole, Role } from '../../../common/roles';
import { holds, offers, type CustomerAccess } from '../../policy';

/** An invitation's role must be one the caller may give (spec section 6). */
export const mayInviteAs = (access: Pick<CustomerAccess, 'role'>, role: MemberRole): boolean =>
  holds(access, 'viewTeam') && offers(access, role);

/** The invitation's language is chosen only by an account executive or an admin (English otherwise). */
export const mayChooseLocale = (access: Pick<CustomerAccess, 'role'>): boolean =>
  holds(access, 'chooseInvitationLocale');

/** A pending invitation: who sees the team cancels and resends it; only an admin copies its link. */
export function invitationAbilities(access: { role: Role } | null): InvitationAbilities {
  return {
    cancel: holds(access, 'viewTeam'),
    resend: holds(access, 'viewTeam'),
    copyLink: holds(access, 'copyInvitationLink'),
  };
}
