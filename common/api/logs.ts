import { z } from 'zod/mini';
import { AUDIT_ACTIONS, AUDIT_ACTOR_KINDS } from '../audit';
import { givenOnce, listOf, PageQuery } from './common';

/** An action filter: one of the vocabulary, given once. */
const ActionFilter = z.optional(z.enum(AUDIT_ACTIONS, { error: givenOnce }));

/** `GET /api/customers/{id}/logs`: newest first, one page, optionally of one action. */
export const LogQuery = z.object({
  pageOffset: PageQuery.shape.pageOffset,
  pageLength: PageQuery.shape.pageLength,
  action: ActionFilter,
});
export type LogQuery = z.infer<typeof LogQuery>;

/** `GET /api/customers/{id}/logs.csv`: every entry of the filter, newest first. */
export const LogExportQuery = z.object({ action: ActionFilter });
export type LogExportQuery = z.infer<typeof LogExportQuery>;

/**
 * One entry of a customer's recent actions (spec section 3, "Log entry"). The fields of a download
 * and of an accepted invitation come out of `data`; `data` carries the rest for the other actions
 * (names, e-mails, old and new values, as written when the action happened).
 */
export const LogEntry = z.object({
  id: z.int(),
  actorEmail: z.nullable(z.string()),
  /**
   * Who acted: a user (`actorEmail`), a visitor without a session, a product API token, an
   * integration (`stripe`, `provisioner`, `crm`), a background job (its name) or the command line.
   * The screen names the machine that acted, never "Anonymous" for it.
   */
  actorKind: z.enum(AUDIT_ACTOR_KINDS),
  /** the integration's, the job's or the token's name; null for a user or a visitor */
  actorName: z.nullable(z.string()),
  action: z.enum(AUDIT_ACTIONS),
  date: z.string(),
  anonymousDownload: z.boolean(),
  productName: z.nullable(z.string()),
  productVersion: z.nullable(z.string()),
  productPlatform: z.nullable(z.string()),
  invitationFrom: z.nullable(z.string()),
  data: z.record(z.string(), z.unknown()),
});
export type LogEntry = z.infer<typeof LogEntry>;

/** Its count stops at a cap (`totalCapped`, common/pagination countCap). */
export const LogList = listOf(LogEntry);
export type LogList = z.infer<typeof LogList>;
