import type { NotificationSettings } from '../../../common/api/customers';
import type { MembershipSettings, MyMemberships, UpdateNotificationSettingsBody } from '../../../common/api/settings';
import { NOTIFICATION_SETTINGS } from '../../../common/domain';
import { mayEditSettings } from '../members/policy';
import { type Actor, signedInUser } from '../../actor';
import type { AppContext } from '../../context';
import { forbidden, notFound } from '../../http-error';
import type { CustomerAccess } from '../../policy';
import { auditActorOf, insertAuditEntry } from '../audit/repo';
import * as repo from './repo';

/** The caller's memberships with their notification flags, by customer name (the settings page). */
export async function listMyMemberships(
  ctx: AppContext,
  actor: Actor,
  input: { pageOffset: number; pageLength: number },
): Promise<MyMemberships> {
  const { user } = signedInUser(actor);
  const page = await repo.listMemberships(ctx.db, user.id, { offset: input.pageOffset, length: input.pageLength });
  return { data: page.rows.map(publicSettings), offset: input.pageOffset, total: page.total, totalCapped: false };
}

const publicSettings = ({ membershipId, customerId, customerName, role, settings }: MembershipSettings) => ({
  membershipId,
  customerId,
  customerName,
  role,
  settings,
});

/**
 * Changes the notification flags of one membership (spec section 3): the member themself, or who sees
 * the customer's team (viewTeam). An account executive's own flags are one set for all their
 * customers (decision 029): their change is written to each of their account-executive memberships,
 * each customer getting its audit entry. Flags left out of the body keep their value; a membership
 * whose flags do not change is not written and gets no entry.
 */
export async function updateNotificationSettings(
  ctx: AppContext,
  actor: Actor,
  input: { membershipId: number; customerAccess: CustomerAccess; settings: UpdateNotificationSettingsBody },
): Promise<MembershipSettings> {
  const { user } = signedInUser(actor);
  return ctx.db.transaction().execute(async (trx) => {
    const target = await repo.findMembership(trx, input.membershipId);
    if (!target) throw notFound('Member not found');
    const self = target.userId === user.id;
    if (!mayEditSettings(user, input.customerAccess, target)) throw forbidden();
    const memberships =
      self && target.role === 'accountExecutive' ? await repo.accountExecutiveMemberships(trx, user.id) : [target];
    if (!memberships.some((m) => m.membershipId === target.membershipId)) memberships.push(target);
    let result: NotificationSettings = target.settings;
    for (const membership of memberships) {
      const changes = changesOf(membership.settings, input.settings);
      const next = { ...membership.settings, ...definedOf(input.settings) };
      if (membership.membershipId === target.membershipId) result = next;
      if (Object.keys(changes).length === 0) continue;
      await repo.updateFlags(trx, membership.membershipId, input.settings);
      await insertAuditEntry(trx, {
        customerId: membership.customerId,
        by: auditActorOf(actor),
        action: 'updateNotificationSettings',
        data: {
          memberEmail: membership.userEmail,
          memberFullName: membership.userFullName,
          role: membership.role,
          changes,
        },
      });
    }
    return publicSettings({ ...target, settings: result });
  });
}

function definedOf(patch: UpdateNotificationSettingsBody): Partial<NotificationSettings> {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
}

/** The flags whose value changes, with the old and the new value. */
function changesOf(current: NotificationSettings, patch: UpdateNotificationSettingsBody) {
  const changes: Record<string, { from: boolean; to: boolean }> = {};
  for (const flag of NOTIFICATION_SETTINGS) {
    const to = patch[flag];
    if (to !== undefined && to !== current[flag]) changes[flag] = { from: current[flag], to };
  }
  return changes;
}
