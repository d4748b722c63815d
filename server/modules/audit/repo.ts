import type { Selectable } from 'kysely';
import type { AuditAction } from '../../../common/audit';
import { countCap } from '../../../common/pagination';
import { type DB, nowIso } from '../../db';
import type { AuditLogTable } from '../../db/schema';
import { countUpTo } from '../../db/search';

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

export type AuditRow = Pick<Selectable<AuditLogTable>, 'id' | 'actorEmail' | 'action' | 'data' | 'createdAt'>;

const COLUMNS = ['id', 'actorEmail', 'action', 'data', 'createdAt'] as const;

/**
 * The entries of one customer, optionally of one action, newest first. Served by the
 * (customer_id, created_at, id) index, and with an action by (customer_id, action, created_at, id).
 */
function entriesOf(db: DB, customerId: number, action: AuditAction | undefined) {
  let query = db.selectFrom('auditLog').where('customerId', '=', customerId);
  if (action) query = query.where('action', '=', action);
  return query;
}

/** One page of a customer's entries, with their number counted up to a cap (decision 013). */
export async function listAuditEntries(
  db: DB,
  customerId: number,
  page: { offset: number; length: number; action?: AuditAction },
) {
  const [rows, count] = await Promise.all([
    entriesOf(db, customerId, page.action)
      .select(COLUMNS)
      .orderBy('createdAt', 'desc')
      .orderBy('id', 'desc')
      .limit(page.length)
      .offset(page.offset)
      .execute(),
    countUpTo(db, entriesOf(db, customerId, page.action), countCap(page.offset, page.length)),
  ]);
  return { rows: rows as AuditRow[], total: count.total, capped: count.capped };
}

/** Where a keyset page stops: the next one starts strictly after (older than) this entry. */
export interface AuditCursor {
  createdAt: string;
  id: number;
}

/**
 * The entries after `cursor` (all from the newest when null), newest first: an export walks the
 * whole log with these, a page at a time, whatever its size, at the cost of an index seek per page.
 */
export async function auditEntriesAfter(
  db: DB,
  customerId: number,
  options: { action?: AuditAction; cursor: AuditCursor | null; limit: number },
) {
  let query = entriesOf(db, customerId, options.action);
  const { cursor } = options;
  if (cursor) {
    query = query.where((eb) =>
      eb.or([
        eb('createdAt', '<', cursor.createdAt),
        eb.and([eb('createdAt', '=', cursor.createdAt), eb('id', '<', cursor.id)]),
      ]),
    );
  }
  const rows = await query
    .select(COLUMNS)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(options.limit)
    .execute();
  return rows as AuditRow[];
}
