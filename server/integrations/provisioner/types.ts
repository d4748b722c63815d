import type { InstanceStatus } from '../../../common/domain';

/**
 * Who builds, suspends, resumes and deletes cloud instances (docs/instances.md): an orchestrator
 * reached over HTTP, or the local simulator when none is configured. The portal sends it orders; it
 * reports each step back (the orchestrator by signed callbacks, the simulator by jobs), and the
 * portal moves the instance's status as the step says.
 */

export const PROVISIONER_COMMANDS = ['create', 'suspend', 'resume', 'delete'] as const;
export type ProvisionerCommand = (typeof PROVISIONER_COMMANDS)[number];

export interface ProvisionerOrder {
  /** unique per order and the same at every attempt of it: the orchestrator's idempotency key */
  id: string;
  command: ProvisionerCommand;
  instance: { id: number; name: string; tier: string; customerKey: string };
}

/** A step the provisioner reports: the status the instance reached, and its address once provisioned. */
export interface ProvisionerReport {
  status: Extract<InstanceStatus, 'provisioning' | 'provisioned' | 'deleted'>;
  url?: string;
}

export interface Provisioner {
  kind: 'local' | 'orchestrator';
  /**
   * Sends an order. Resolves once the provisioner took it, and throws when it did not (the job that
   * sends it retries with backoff). The local simulator answers the steps it will report, one per
   * delay; an orchestrator answers none (it reports by its callbacks).
   */
  send(order: ProvisionerOrder): Promise<{ simulated: ProvisionerReport[] }>;
}
