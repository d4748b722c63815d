import { sql } from 'kysely';
import {
  ACCOUNT_EXECUTIVE_CANDIDATES_LIMIT,
  type AccountExecutiveCandidates,
  type Customer,
} from '../../../common/api/customers';
import { type Actor, signedInUser } from '../../actor';
import type { AppContext } from '../../context';
import { type DB, isUniqueViolation, nowIso } from '../../db';
import { isPostgres, sortOfMatches, textMatch } from '../../db/search';
import { badRequest, conflict, fieldDetail } from '../../http-error';
import type { CustomerAccess } from '../../plugins/access';
import { insertAuditEntry } from '../audit/repo';
import { getCustomer } from './service';
import { insertMembership } from './store';

/**
 * The account executive of a customer is its member with the role accountExecutive (spec section 3,
 * "Customer"); staff with manageLicences there pick one among the enabled users of type
 * accountExecutive (docs/decisions/025-customer-list-and-account-executive.md).
 */

export const NOT_AN_ACCOUNT_EXECUTIVE = 'This user is not an enabled account executive';

/** Enabled users of type accountExecutive whose name or e-mail holds the filter, by name. */
export async function listAccountExecutiveCandidates(
  ctx: AppContext,
  _actor: Actor,
  input: { filter?: string },
): Promise<AccountExecutiveCandidates> {
  const { db } = ctx;
  const text = input.filter?.trim() ?? '';
  let query = db
    .selectFrom('users')
    .select(['users.id', 'users.fullName', 'users.email'])
    .where('users.type', '=', 'accountExecutive')
    .where('users.status', '=', 'enabled');
  if (text) query = query.where(textMatch(db, 'users', text));
  const lowerName = isPostgres(db)
    ? sql`lower(${sql.ref('users.fullName')}) collate "C"`
    : sql`lower(${sql.ref('users.fullName')})`;
  const data = await query
    .orderBy(text ? sortOfMatches(db, lowerName, 'text') : lowerName)
    .orderBy('users.id')
    .limit(ACCOUNT_EXECUTIVE_CANDIDATES_LIMIT)
    .execute();
  return { data };
}

interface Person {
  id: number;
  fullName: string;
  email: string;
}

/** The enabled account executive members of a customer (normally one), earliest first. */
function currentAccountExecutives(db: DB, customerId: number): Promise<(Person & { membershipId: number })[]> {
  return db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.userId')
    .select(['memberships.id as membershipId', 'users.id', 'users.fullName', 'users.email'])
    .where('memberships.customerId', '=', customerId)
    .where('memberships.role', '=', 'accountExecutive')
    .where('memberships.status', '=', 'enabled')
    .orderBy('memberships.id')
    .execute();
}

/**
 * Makes `userId` the customer's account executive: their membership (created, or re-enabled with the
 * role accountExecutive) and the previous account executive's membership disabled (kept, so the team
 * and the log still show who it was), with a `setAccountExecutive` audit entry, in one transaction.
 * Choosing the one already in place changes nothing.
 */
export async function setAccountExecutive(
  ctx: AppContext,
  actor: Actor,
  input: { customerAccess: CustomerAccess; userId: number },
): Promise<Customer> {
  const { user: me } = signedInUser(actor);
  const { customer } = input.customerAccess;
  const chosen = await ctx.db
    .selectFrom('users')
    .select(['id', 'fullName', 'email'])
    .where('id', '=', input.userId)
    .where('type', '=', 'accountExecutive')
    .where('status', '=', 'enabled')
    .executeTakeFirst();
  if (!chosen) throw badRequest(NOT_AN_ACCOUNT_EXECUTIVE, fieldDetail('userId', 'not_account_executive'));

  try {
    await ctx.db.transaction().execute(async (trx) => {
      // Writing the customer row first makes two changes of one customer wait for each other
      // (a row lock on PostgreSQL; SQLite has one writer), so there is never a second one.
      await trx.updateTable('customers').set({ updatedAt: nowIso() }).where('id', '=', customer.id).execute();
      const previous = await currentAccountExecutives(trx, customer.id);
      if (previous.length === 1 && previous[0].id === chosen.id) return;
      const others = previous.filter((p) => p.id !== chosen.id);
      if (others.length > 0)
        await trx
          .updateTable('memberships')
          .set({ status: 'disabled' })
          .where(
            'id',
            'in',
            others.map((p) => p.membershipId),
          )
          .execute();
      const existing = await trx
        .selectFrom('memberships')
        .select(['id', 'role', 'status'])
        .where('customerId', '=', customer.id)
        .where('userId', '=', chosen.id)
        .executeTakeFirst();
      if (existing)
        await trx
          .updateTable('memberships')
          .set({ role: 'accountExecutive', status: 'enabled' })
          .where('id', '=', existing.id)
          .execute();
      else await insertMembership(trx, { userId: chosen.id, customerId: customer.id, role: 'accountExecutive' });
      await insertAuditEntry(trx, {
        customerId: customer.id,
        actorId: me.id,
        actorEmail: me.email,
        action: 'setAccountExecutive',
        data: {
          accountExecutive: { id: chosen.id, fullName: chosen.fullName, email: chosen.email },
          previous: others.map(({ id, fullName, email }) => ({ id, fullName, email })),
        },
      });
    });
  } catch (error) {
    // Only a concurrent insert of the same membership can get here; the caller may try again.
    if (isUniqueViolation(error)) throw conflict('The account executive changed meanwhile; please try again');
    throw error;
  }
  return getCustomer(ctx, actor, { customerAccess: input.customerAccess });
}
