import type { UpdateUserBody } from '../../../common/api/users';
import { ERROR_CODES } from '../../../common/api/errors';
import type { Actor } from '../../actor';
import { fieldDetail, forbidden, HttpError } from '../../http-error';

/**
 * Who may do what to a user account, beyond the route's rule (only admins reach these routes).
 * An admin cannot disable their own account: it would lock them out at once, and could leave the
 * portal without any enabled admin.
 */
export function authorizeUserUpdate(actor: Actor, targetId: number, patch: UpdateUserBody): void {
  if (actor.kind === 'user' && actor.user.id === targetId && patch.status === 'disabled') {
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
