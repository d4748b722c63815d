import type { UpdateUserBody } from '../../../common/api/users';
import { ERROR_CODES } from '../../../common/api/errors';
import { HttpError } from '../../http-error';
import type { SessionUser } from '../../plugins/session';

/**
 * Who may do what to a user account, beyond the route's rule (only admins reach these routes).
 * An admin cannot disable their own account: it would lock them out at once, and could leave the
 * portal without any enabled admin.
 */
export function authorizeUserUpdate(actor: SessionUser, targetId: number, patch: UpdateUserBody): void {
  if (actor.id === targetId && patch.status === 'disabled') {
    throw new HttpError(403, ERROR_CODES.cannotDisableSelf, 'You cannot disable your own account');
  }
}
