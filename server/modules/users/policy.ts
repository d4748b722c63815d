import type { UpdateUserBody } from '../../../common/api/users';
import { forbidden } from '../../http-error';
import type { SessionUser } from '../../plugins/session';

/**
 * Who may do what to a user account, beyond the route's rule (only admins reach these routes).
 * An admin cannot disable their own account: it would lock them out at once, and could leave the
 * portal without any enabled admin.
 */
export function authorizeUserUpdate(actor: SessionUser, targetId: number, patch: UpdateUserBody): void {
  if (actor.id === targetId && patch.status === 'disabled') {
    throw forbidden('You cannot disable your own account');
  }
}
