import type { UserAbilities } from '../../../common/api/abilities';
import type { UpdateUserBody } from '../../../common/api/users';
import { ERROR_CODES } from '../../../common/api/errors';
import type { Actor } from '../../actor';
import { fieldDetail, forbidden, HttpError } from '../../http-error';
import { type Caller, callerOf, holdsGlobally, isSelf } from '../../policy';

/**
 * Who may do what to a user account (spec sections 4 and 6), beyond the route's rule (only admins,
 * who hold manageUsers, reach these routes).
 */

/**
 * Nobody changes the status of their own account: disabling it would lock them out at once, and
 * could leave the portal without any enabled admin (spec section 4: the status field is enabled
 * only for another user).
 */
export const mayChangeUserStatus = (caller: Pick<Caller, 'id'>, user: { id: number }): boolean =>
  !isSelf(caller, user.id);

/** A user account on the Users page: edited by who manages users, its status only by someone else. */
export function userAbilities(caller: Pick<Caller, 'id' | 'type'> | null, user: { id: number }): UserAbilities {
  if (caller === null) return { edit: false, changeStatus: false };
  const edit = holdsGlobally(caller, 'manageUsers');
  return { edit, changeStatus: edit && mayChangeUserStatus(caller, user) };
}

/** Refuses disabling one's own account (403 cannot_disable_self on status). */
export function authorizeUserUpdate(actor: Actor, targetId: number, patch: UpdateUserBody): void {
  const caller = callerOf(actor);
  if (caller && patch.status === 'disabled' && !mayChangeUserStatus(caller, { id: targetId })) {
    throw new HttpError(
      403,
      ERROR_CODES.cannotDisableSelf,
      'You cannot disable your own account',
      fieldDetail('status', ERROR_CODES.cannotDisableSelf),
    );
  }
}

/**
 * Only the operator command line sets a password at creation (the first admin); an admin through the
 * API never chooses another person's password (decision 006).
 */
export function authorizeUserCreate(actor: Actor, input: { password?: string }): void {
  if (input.password !== undefined && actor.kind !== 'system') throw forbidden();
}
