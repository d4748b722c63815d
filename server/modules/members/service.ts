import { ERROR_CODES } from '../../../common/api/errors';
import type { Member, MemberList, MemberListQuery, UpdateMemberStatusBody } from '../../../common/api/members';
import { type Actor, signedInUser } from '../../actor';
import type { AppContext } from '../../context';
import { fieldDetail, HttpError, notFound } from '../../http-error';
import { auditActorOf, insertAuditEntry } from '../audit/repo';
import { memberAbilities, mayChangeStatus } from './policy';
import * as repo from './repo';
import type { Caller, CustomerAccess } from '../../policy';

const MEMBER_NOT_FOUND = 'Member not found';
const CANNOT_EDIT_SELF = 'You cannot change your own membership';
const ROLE_NOT_MANAGED = 'You cannot change the status of a member with this role';

const toApiMember = (row: repo.MemberRow, caller: Pick<Caller, 'id'>, access: CustomerAccess): Member => ({
  id: row.id,
  userId: row.userId,
  fullname: row.fullName,
  email: row.email,
  role: row.role,
  status: row.status,
  can: memberAbilities(caller, access, row),
});

export async function listMembers(
  ctx: AppContext,
  actor: Actor,
  input: { customerAccess: CustomerAccess; query: MemberListQuery },
): Promise<MemberList> {
  const { user } = signedInUser(actor);
  const { query } = input;
  const { rows, total } = await repo.listMembers(ctx.db, input.customerAccess.customer.id, {
    filter: query.filter || undefined,
    sort: query.sort,
    offset: query.pageOffset,
    length: query.pageLength,
  });
  return {
    data: rows.map((row) => toApiMember(row, user, input.customerAccess)),
    offset: query.pageOffset,
    total,
    totalCapped: false,
  };
}

/**
 * Enables or disables a membership (spec section 4: it toggles; nobody edits themself). A caller
 * changes only members of a role they could invite (spec section 6): a project manager does not
 * disable the customer's account executive. The change and its audit entry are one transaction.
 */
export async function updateMemberStatus(
  ctx: AppContext,
  actor: Actor,
  input: { customerAccess: CustomerAccess; id: number; body: UpdateMemberStatusBody },
): Promise<Member> {
  const { user } = signedInUser(actor);
  const { customerAccess, id, body } = input;
  return ctx.db.transaction().execute(async (trx) => {
    const member = await repo.findMember(trx, id);
    if (!member || member.customerId !== customerAccess.customer.id) throw notFound(MEMBER_NOT_FOUND);
    if (member.userId === user.id) {
      throw new HttpError(
        403,
        ERROR_CODES.cannotEditSelf,
        CANNOT_EDIT_SELF,
        fieldDetail('status', ERROR_CODES.cannotEditSelf),
      );
    }
    if (!mayChangeStatus(user, customerAccess, member)) {
      throw new HttpError(
        403,
        ERROR_CODES.roleNotAllowed,
        ROLE_NOT_MANAGED,
        fieldDetail('status', ERROR_CODES.roleNotAllowed),
      );
    }
    if (member.status === body.status) return toApiMember(member, user, customerAccess);
    await repo.setMemberStatus(trx, id, body.status);
    await insertAuditEntry(trx, {
      customerId: member.customerId,
      by: auditActorOf(actor),
      action: 'updateMemberStatus',
      data: {
        memberFullName: member.fullName,
        memberEmail: member.email,
        role: member.role,
        oldStatus: member.status,
        newStatus: body.status,
      },
    });
    return toApiMember({ ...member, status: body.status }, user, customerAccess);
  });
}
