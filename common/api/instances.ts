import { z } from 'zod/mini';
import { INSTANCE_STATUSES } from '../domain';
import { DEFAULT_PAGE_LENGTH, MAX_PAGE_LENGTH } from '../pagination';
import { listOf, MAX_ID, wholeNumber } from './common';

/** What the caller may do with one cloud instance (server/modules/instances/policy.ts). */
export const InstanceAbilities = z.object({
  /** its address is shown as a link: provisioned only */
  open: z.boolean(),
  /** its logs are linked: provisioned, and for support engineers and admins (spec section 6) */
  logs: z.boolean(),
  archive: z.boolean(),
  restore: z.boolean(),
});
export type InstanceAbilities = z.infer<typeof InstanceAbilities>;

/** One cloud instance of a customer (spec section 3, "Cloud instance"). */
export const Instance = z.object({
  id: z.int(),
  name: z.string(),
  tier: z.string(),
  status: z.enum(INSTANCE_STATUSES),
  /** where it answers; null unless it is provisioned */
  url: z.nullable(z.string()),
  /** its logs for the caller; null unless `can.logs` */
  logsUrl: z.nullable(z.string()),
  /** how many days its data is kept once archived */
  deleteDataDelayInDays: z.int(),
  /** when its data will be deleted, while it is archived; else null */
  deleteDataAt: z.nullable(z.string()),
  can: InstanceAbilities,
});
export type Instance = z.infer<typeof Instance>;

export const InstanceList = listOf(Instance);
export type InstanceList = z.infer<typeof InstanceList>;

/** `GET /api/customers/{id}/instances[?pageOffset&pageLength]`: ten at a time unless pageLength is given. */
export const InstanceListQuery = z.object({
  pageOffset: z._default(wholeNumber(0, MAX_ID), 0),
  pageLength: z._default(wholeNumber(1, MAX_PAGE_LENGTH), DEFAULT_PAGE_LENGTH),
});
export type InstanceListQuery = z.infer<typeof InstanceListQuery>;

/** The statuses an orchestrator reports in its callbacks (docs/instances.md). */
const INSTANCE_CALLBACK_STATUSES = ['provisioning', 'provisioned', 'deleted', 'failed'] as const;

/**
 * `POST /api/instances/callback`: what an orchestrator reports about one instance, signed with the
 * shared secret (docs/instances.md). `id` names the event: the same event sent again is applied once.
 */
export const InstanceCallbackBody = z.strictObject({
  id: z.string().check(z.minLength(1), z.maxLength(200)),
  instanceId: z.int().check(z.minimum(1), z.maximum(MAX_ID)),
  status: z.enum(INSTANCE_CALLBACK_STATUSES),
  /** required with `provisioned`: where the instance answers */
  url: z.optional(z.url({ protocol: /^https?$/ }).check(z.maxLength(2048))),
  /** with `failed`: what went wrong, for the operators' log */
  error: z.optional(z.string().check(z.maxLength(2000))),
});
export type InstanceCallbackBody = z.infer<typeof InstanceCallbackBody>;

export const InstanceCallbackAnswer = z.object({
  /** false when the event changed nothing: seen before, or the instance already in that status */
  applied: z.boolean(),
});
export type InstanceCallbackAnswer = z.infer<typeof InstanceCallbackAnswer>;
