import {
  ACCOUNT_EXECUTIVE_CANDIDATES_LIMIT,
  type AccountExecutiveCandidates,
  type Customer,
} from '../../../common/api/customers';
import { type Actor, signedInUser } from '../../actor';
import type { AppContext } from '../../context';
import { isUniqueViolation } from '../../db';
import { badRequest, conflict, fieldDetail } from '../../http-error';
import type { CustomerAccess } from '../../policy';
import { auditActorOf, insertAuditEntry } from '../audit/repo';
import * as repo from './repo';
import { getCustomer } from './service';
import { insertMembership } from './store';

/**
 * The account executive of a customer is its member with the role accountExecutive (spec section 3,
 * "Customer"); staff with manageLicences there pick one among the enabled users of type
 * accountExecutive (docs/decisions/025-customer-list-and-account-executive.md).
 */

const NOT_AN_ACCOUNT_EXECUTIVE = 'This user is not an enabled account executive';

/** Enabled users of type accountExecutive whose name or e-mail holds the filter, by name. */
export async function listAccountExecutiveCandidates(
  ctx: AppContext,
  _actor: Actor,
  input: { filter?: string },
): Promise<AccountExecutiveCandidates> {
  return {
    data: await repo.accountExecutiveCandidates(ctx.db, input.filter?.trim() ?? '', ACCOUNT_EXECUTIVE_CANDIDATES_LIMIT),
  };
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
  signedInUser(actor);
  const { customer } = input.customerAccess;
  const chosen = await repo.findEnabledAccountExecutive(ctx.db, input.userId);
  if (!chosen) throw badRequest(NOT_AN_ACCOUNT_EXECUTIVE, fieldDetail('userId', 'not_account_executive'));

  try {
    await ctx.db.transaction().execute(async (trx) => {
      // Writing the customer row first makes two changes of one customer wait for each other
      // (a row lock on PostgreSQL; SQLite has one writer), so there is never a second one.
      await repo.touchCustomer(trx, customer.id);
      const previous = await repo.currentAccountExecutives(trx, customer.id);
      if (previous.length === 1 && previous[0].id === chosen.id) return;
      const others = previous.filter((p) => p.id !== chosen.id);
      await repo.disableMemberships(
        trx,
        others.map((p) => p.membershipId),
      );
      const existing = await repo.membershipOf(trx, customer.id, chosen.id);
      if (existing) await repo.makeEnabledAccountExecutive(trx, existing.id);
      else await insertMembership(trx, { userId: chosen.id, customerId: customer.id, role: 'accountExecutive' });
      await insertAuditEntry(trx, {
        customerId: customer.id,
        by: auditActorOf(actor),
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
