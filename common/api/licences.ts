import { z } from 'zod/mini';
import { ACCESS_LEVELS, CUSTOMIZATION_TYPES, LICENCE_STATUSES } from '../domain';
import { isCalendarDay, utcToday } from '../licence-status';
import { MAX_PAGE_LENGTH } from '../pagination';
import { LicenceAbilities } from './abilities';
import { listOf, PageQuery, REQUIRED, requiredIfMissing, wholeNumber } from './common';

/**
 * Licences (spec sections 3, 5 and 7). Paths keep the spec's spelling (`/api/customers/{id}/licenses`,
 * `/api/licenses/{id}`); the code says licence. Dates are calendar days `YYYY-MM-DD` (common/licence-status.ts).
 */

/** Message keys of the licence rules (client/i18n `licences.errors.*`); the server sends them in details. */
export const LICENCE_ERRORS = {
  invalidDate: 'licences.errors.invalidDate',
  endNotInFuture: 'licences.errors.endNotInFuture',
  endBeforeStart: 'licences.errors.endBeforeStart',
  dataNotObject: 'licences.errors.dataNotObject',
} as const;

/** A calendar day, `YYYY-MM-DD`, that exists. */
const CalendarDay = z.string({ error: requiredIfMissing }).check(
  z.minLength(1, REQUIRED),
  z.refine((value) => isCalendarDay(value), { message: LICENCE_ERRORS.invalidDate }),
);

/** A licence's `data` (spec section 3, e.g. a fixed number of licences): a JSON object. */
export const LicenceData = z.record(z.string(), z.unknown(), { error: LICENCE_ERRORS.dataNotObject });
export type LicenceData = z.infer<typeof LicenceData>;

/** An end date after today (the server's UTC day: it is the one that decides). */
const FutureDay = CalendarDay.check(
  z.refine((value) => !isCalendarDay(value) || value > utcToday(), { message: LICENCE_ERRORS.endNotInFuture }),
);

export const Licence = z.object({
  id: z.int(),
  customerId: z.int(),
  productKey: z.string(),
  productName: z.string(),
  /** the product's: shown as "(SaaS)" after its name */
  isSaas: z.boolean(),
  /** the product's customization type: a licence of a `none` product offers no customization */
  customizationType: z.enum(CUSTOMIZATION_TYPES),
  /** shown as "(with Entity resolution)" after the product's name */
  hasEntityResolution: z.boolean(),
  status: z.enum(LICENCE_STATUSES),
  startDate: z.string(),
  endDate: z.string(),
  accessLevel: z.enum(ACCESS_LEVELS),
  data: LicenceData,
  /** the secret of the licence's download URL; null for roles that may not download (capability `download`) */
  downloadSecret: z.nullable(z.string()),
  customizationId: z.nullable(z.int()),
  /** the date of the licence's latest download; null when none, or for roles without `viewLicenceDetails` */
  latestDownload: z.nullable(z.string()),
  /**
   * the release date of the newest published version the licence's access level allows that has
   * files to download; null when there is none
   */
  latestFilesReleased: z.nullable(z.string()),
  /** what the caller may do with this licence (server/modules/licences/policy.ts) */
  can: LicenceAbilities,
});
export type Licence = z.infer<typeof Licence>;

export const LicenceList = listOf(Licence);
export type LicenceList = z.infer<typeof LicenceList>;

/** `GET /api/customers/{id}/licenses`: offset pages (10 by default), by product name. */
export const LicenceListQuery = z.object({
  pageOffset: PageQuery.shape.pageOffset,
  pageLength: PageQuery.shape.pageLength,
});
export type LicenceListQuery = z.infer<typeof LicenceListQuery>;

/**
 * `POST /api/customers/{id}/licenses` (spec section 5): product, access level (stable by default),
 * start and end dates, the end in the future and after the start, data a JSON object. The start may
 * be in the past. A customer holds one licence per product (a second one is renewed instead: 409).
 */
export const CreateLicenceBody = z
  .strictObject({
    productKey: z.string({ error: requiredIfMissing }).check(z.trim(), z.minLength(1, REQUIRED), z.maxLength(100)),
    accessLevel: z._default(z.enum(ACCESS_LEVELS), 'stable'),
    startDate: CalendarDay,
    endDate: FutureDay,
    data: LicenceData,
    hasEntityResolution: z._default(z.boolean(), false),
  })
  .check(
    z.refine(
      (body) => !isCalendarDay(body.startDate) || !isCalendarDay(body.endDate) || body.endDate > body.startDate,
      {
        path: ['endDate'],
        message: LICENCE_ERRORS.endBeforeStart,
      },
    ),
  );
export type CreateLicenceBody = z.infer<typeof CreateLicenceBody>;

/**
 * `PATCH /api/licenses/{id}`, the renewal (spec section 5): end date in the future (and after the
 * start: the server checks it against the stored start), access level, data a JSON object.
 */
export const UpdateLicenceBody = z.strictObject({
  accessLevel: z.enum(ACCESS_LEVELS),
  endDate: FutureDay,
  data: LicenceData,
  hasEntityResolution: z.optional(z.boolean()),
});
export type UpdateLicenceBody = z.infer<typeof UpdateLicenceBody>;

/** A product a customer may be given a licence of (one it holds none of), for the licence modal. */
export const LicensableProduct = z.object({
  key: z.string(),
  name: z.string(),
  isSaas: z.boolean(),
  customizationType: z.enum(CUSTOMIZATION_TYPES),
});
export type LicensableProduct = z.infer<typeof LicensableProduct>;

/** `GET /api/customers/{id}/licensable-products`: by name. */
export const LicensableProductList = z.object({ data: z.array(LicensableProduct) });
export type LicensableProductList = z.infer<typeof LicensableProductList>;

/** One row of the licences ending soon (staff home and the account executive's picker). */
export const EndingLicence = z.object({
  id: z.int(),
  customerId: z.int(),
  customerName: z.string(),
  productKey: z.string(),
  productName: z.string(),
  endDate: z.string(),
  status: z.enum(LICENCE_STATUSES),
});
export type EndingLicence = z.infer<typeof EndingLicence>;

export const ENDING_LICENCES_DAYS = 90;

/**
 * `GET /api/licenses/ending?days&pageOffset&pageLength`: licences whose end date lies between today
 * and `days` (90 by default) from now, soonest first, of the customers where the caller may manage
 * licences (every customer for admins and product managers, their own for account executives).
 */
export const EndingLicenceQuery = z.object({
  days: z._default(wholeNumber(1, 366), ENDING_LICENCES_DAYS),
  pageOffset: PageQuery.shape.pageOffset,
  pageLength: z._default(wholeNumber(1, MAX_PAGE_LENGTH), 10),
});
export type EndingLicenceQuery = z.infer<typeof EndingLicenceQuery>;

/** Its count stops at a cap (`totalCapped`, decision 013): across every customer the list can be long. */
export const EndingLicenceList = listOf(EndingLicence);
export type EndingLicenceList = z.infer<typeof EndingLicenceList>;
