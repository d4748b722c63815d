import type { InstanceArchiveReason, InstanceStatus } from '../../common/domain';
import { type DB, nowIso } from '../db';
import { insertCloudInstance } from '../modules/instances/repo';

/** Test data of cloud instances, written through the module's repository. */

let counter = 0;

/** A fresh instance of the customer in `status` (archived ones archived now, for non-payment unless told). */
export async function createInstance(
  db: DB,
  customerId: number,
  status: InstanceStatus = 'provisioned',
  props: Partial<{
    name: string;
    tier: string;
    archivedFor: InstanceArchiveReason;
    deleteDataDelayInDays: number;
  }> = {},
): Promise<number> {
  const name = props.name ?? `instance-${customerId}-${++counter}`;
  const archived = status === 'archived';
  const { id } = await insertCloudInstance(db, {
    customerId,
    name,
    tier: props.tier ?? 'trial',
    status,
    url: status === 'provisioned' || archived ? `https://${name}.instances.example.com` : null,
    deleteDataDelayInDays: props.deleteDataDelayInDays ?? 30,
    archivedAt: archived ? nowIso() : null,
    archivedFor: archived ? (props.archivedFor ?? 'unpaid') : null,
  });
  return id;
}
