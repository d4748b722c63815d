import type { ProvisionerCommand, ProvisionerReport } from '../../integrations/provisioner';

/** The kinds of work of cloud instances (docs/instances.md); declared in server/job-kinds.ts. */

/** Sends one order to the provisioner; retried with backoff until it takes it. */
export const INSTANCE_ORDER_JOB = 'instances.order';
/** Plays the local simulator's next step (the callback a real orchestrator would send). */
export const INSTANCE_SIMULATE_JOB = 'instances.simulate';
/** Starts deleting an archived instance's data at the end of its delay. */
export const INSTANCE_DELETE_DATA_JOB = 'instances.deleteData';
/** Forgets the orchestrator callbacks too old to be replayed. */
export const INSTANCE_CALLBACKS_PURGE = 'purge.instance-callbacks';

declare module '../../jobs/types' {
  interface QueuedJobs {
    [INSTANCE_ORDER_JOB]: { instanceId: number; command: ProvisionerCommand; orderId: string };
    [INSTANCE_SIMULATE_JOB]: { instanceId: number; steps: ProvisionerReport[] };
    /** `archivedAt`: the archive this deletion belongs to; another one (after a restore) skips it */
    [INSTANCE_DELETE_DATA_JOB]: { instanceId: number; archivedAt: string };
  }
}
