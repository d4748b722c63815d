import type { InstanceAbilities } from '../../../common/api/instances';
import { holds, type CustomerAccess } from '../../policy';
import type { InstanceRow } from './repo';

/**
 * What the caller may do with one cloud instance (spec sections 4 and 6): open it and read its logs
 * only while it is provisioned, the logs for support engineers and admins; archive a provisioned
 * one and restore an archived one with `manageInstances` (admins and support engineers).
 */
export function instanceAbilities(
  access: Pick<CustomerAccess, 'role'> | null,
  instance: Pick<InstanceRow, 'status'>,
): InstanceAbilities {
  const provisioned = instance.status === 'provisioned';
  const manage = holds(access, 'manageInstances');
  return {
    open: provisioned,
    logs: provisioned && holds(access, 'viewSaasLogs'),
    archive: manage && provisioned,
    restore: manage && instance.status === 'archived',
  };
}
