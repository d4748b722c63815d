import type { Config } from '../config';
import { openMailBody } from '../mail/body';

/**
 * An outbox row with its text opened as the delivery opens it (the outbox keeps bodies sealed:
 * server/mail/body.ts): `textBody` is the mail's text, '' when the body was dropped.
 */
export function withText(ctx: { config: Config }) {
  return <R extends { bodySealed: string | null }>(row: R): Omit<R, 'bodySealed'> & { textBody: string } => {
    const { bodySealed, ...rest } = row;
    const body = openMailBody(ctx.config.sealSecrets, { bodySealed, textBody: '', htmlBody: null });
    return { ...rest, textBody: body?.text ?? '' };
  };
}
