import type { InstanceStatus } from './domain';

/**
 * The lifecycle of a cloud instance (spec section 4, docs/instances.md), as one table: each status
 * and the statuses it may go to, with who moves it there. Nothing else changes an instance's status:
 * the server refuses (and logs) any other move, and its test walks every pair of this table.
 *
 * - creating -> provisioning: the orchestrator (or the local simulator) took the order
 * - provisioning -> provisioned: the instance answers at its URL
 * - provisioned -> archived: the subscription's grace ended unpaid, or staff archived it
 * - archived -> provisioned: restored (the payment came back, or staff restored it)
 * - archived -> deleting: the archive lasted the instance's deleteDataDelayInDays
 * - deleting -> deleted: the orchestrator deleted its data; deleted is the end
 *
 * Failures move nothing: an order the orchestrator does not take is retried with backoff by the
 * job engine, then shown as a failed job to operators (the Background work page), and a failure the
 * orchestrator reports is audited and logged while the instance keeps its status.
 */
export const INSTANCE_TRANSITIONS: { readonly [From in InstanceStatus]: readonly InstanceStatus[] } = {
  creating: ['provisioning'],
  provisioning: ['provisioned'],
  provisioned: ['archived'],
  archived: ['provisioned', 'deleting'],
  deleting: ['deleted'],
  deleted: [],
};

export function mayMoveInstance(from: InstanceStatus, to: InstanceStatus): boolean {
  return INSTANCE_TRANSITIONS[from].includes(to);
}

/** Statuses the instance leaves by itself, soon: a screen showing one asks again until none is left. */
export const INSTANCE_STATUSES_IN_PROGRESS: readonly InstanceStatus[] = ['creating', 'provisioning', 'deleting'];

/** Statuses an instance counts as live in (the grace chain archives these): running or on its way. */
export const LIVE_INSTANCE_STATUSES: readonly InstanceStatus[] = ['provisioned'];

/**
 * The dot beside each status (spec section 4): provisioned is valid, provisioning a warning, every
 * other status invalid. Coloured as the licences' statuses are (spec section 9).
 */
export const INSTANCE_STATUS_DOTS: { readonly [S in InstanceStatus]: 'valid' | 'warning' | 'invalid' } = {
  creating: 'invalid',
  provisioning: 'warning',
  provisioned: 'valid',
  archived: 'invalid',
  deleting: 'invalid',
  deleted: 'invalid',
};

export const STATUS_DOT_COLOURS = { valid: 'green', warning: 'orange', invalid: 'red' } as const;
