import type { AppContext } from '../../context';
import type { DB } from '../../db';
import { emitNotification } from './events';

/** The mail templates that tell of an undeliverable mail: one of them bouncing tells nobody (no loop). */
const EMAIL_ERROR_TEMPLATES: readonly string[] = ['emailError'];

/**
 * A mail that cannot be delivered (refused for good, or its last attempt failed): the managers of
 * the customers its address is a member of hear of it (docs/notifications.md), in the transaction
 * that fails the mail. The mailer calls it (server/compose.ts wires it as `onUndeliverable`).
 */
export async function notifyEmailError(
  ctx: AppContext,
  executor: DB,
  mail: { to: string; template: string; error: string },
): Promise<void> {
  if (EMAIL_ERROR_TEMPLATES.includes(mail.template)) return;
  await emitNotification(ctx, executor, { type: 'emailError', email: mail.to, error: mail.error });
}
