import type { AuditAction } from '../../../common/audit';
import { type DB, nowIso } from '../../db';

/** The audit log of spec section 3 ("Log entry"): who did what, per customer. */

export async function insertAuditEntry(
  db: DB,
  entry: {
    customerId: number | null;
    actorId: number | null;
    actorEmail: string | null;
    /** one of the vocabulary in common/audit.ts */
    action: AuditAction;
    data?: Record<string, unknown>;
    createdAt?: string;
  },
) {
  return db
    .insertInto('auditLog')
    .values({
      customerId: entry.customerId,
      actorId: entry.actorId,
      actorEmail: entry.actorEmail,
      action: entry.action,
      data: JSON.stringify(entry.data ?? {}),
      createdAt: entry.createdAt ?? nowIso(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}
