import type { Selectable } from 'kysely';
import type {
  AuditAction,
  AuditActorKind,
  CatalogueAuditAction,
  SettingsAuditAction,
  SignupAuditAction,
  AccountAuditAction,
} from '../../../common/audit';
import type { Actor, ActorKind } from '../../actor';
import { countCap } from '../../../common/pagination';
import { type DB, nowIso } from '../../db';
import type { AuditLogTable } from '../../db/schema';
import { countUpTo } from '../../db/search';

/** The audit log of spec section 3 ("Log entry"): who did what, per customer or to the catalogue. */

/** Who acted, as an entry stores it (docs/decisions/059). */
export interface AuditActor {
  kind: AuditActorKind;
  /** the user, for a user */
  id: number | null;
  /** the user's address, for a user */
  email: string | null;
  /** a machine's name: a token's "#id name", an integration's, a job's, the system's */
  name: string | null;
}

// the kinds an entry stores are the kinds of actors, both ways
const _sameKinds: [ActorKind, AuditActorKind] = ['user', 'user'] as [AuditActorKind, ActorKind];

/** The actor of a service call as its entries record it. */
export function auditActorOf(actor: Actor): AuditActor {
  switch (actor.kind) {
    case 'user':
      return auditUser(actor.user);
    case 'anonymous':
      return anonymousAuditActor;
    case 'token':
      return { kind: 'token', id: null, email: null, name: `#${actor.token.id} ${actor.token.name}` };
    default:
      return { kind: actor.kind, id: null, email: null, name: actor.name };
  }
}

/** A visitor without a session (the secret download URL). */
export const anonymousAuditActor: AuditActor = { kind: 'anonymous', id: null, email: null, name: null };

/** A user as the actor of an entry (one who has just joined, say, before any session of theirs). */
export const auditUser = (user: { id: number; email: string }): AuditActor => ({
  kind: 'user',
  id: user.id,
  email: user.email,
  name: null,
});

/**
 * A change to a customer's data is written under one of AUDIT_ACTIONS with its customer, and the
 * customer's recent actions list it; a change to the catalogue under one of CATALOGUE_AUDIT_ACTIONS
 * with none, and no customer's list shows it; so is a change to the portal's settings
 * (SETTINGS_AUDIT_ACTIONS), and a visitor's sign-up before it has a customer (SIGNUP_AUDIT_ACTIONS).
 */
type AuditEntry = {
  by: AuditActor;
  data?: Record<string, unknown>;
  createdAt?: string;
} & (
  | { customerId: number; action: AuditAction }
  | {
      customerId: null;
      action: CatalogueAuditAction | SettingsAuditAction | SignupAuditAction | AccountAuditAction;
    }
);

export async function insertAuditEntry(db: DB, entry: AuditEntry) {
  return db
    .insertInto('auditLog')
    .values({
      customerId: entry.customerId,
      actorId: entry.by.id,
      actorEmail: entry.by.email,
      actorKind: entry.by.kind,
      actorName: entry.by.name,
      action: entry.action,
      data: JSON.stringify(entry.data ?? {}),
      createdAt: entry.createdAt ?? nowIso(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

export type AuditRow = Pick<
  Selectable<AuditLogTable>,
  'id' | 'actorEmail' | 'actorKind' | 'actorName' | 'action' | 'data' | 'createdAt'
>;

const COLUMNS = ['id', 'actorEmail', 'actorKind', 'actorName', 'action', 'data', 'createdAt'] as const;

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
