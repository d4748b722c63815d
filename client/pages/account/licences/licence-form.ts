import { z } from 'zod/mini';
import { REQUIRED } from '../../../../common/api/common';
import { CreateLicenceBody, LICENCE_ERRORS, type Licence, UpdateLicenceBody } from '../../../../common/api/licences';
import type { AccessLevel } from '../../../../common/domain';
import { addMonths, isCalendarDay, localToday } from '../../../../common/licence-status';

/** The data field's own message when its text is not JSON at all (client/i18n `licences.errors.invalidJson`). */
export const INVALID_JSON = 'licences.errors.invalidJson';

/** What the licence form holds: the dates as calendar days (`YYYY-MM-DD`, '' when none), the data as text. */
export interface LicenceFormValues extends Record<string, unknown> {
  productKey: string;
  accessLevel: AccessLevel;
  startDate: string;
  endDate: string;
  data: string;
  hasEntityResolution: boolean;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

const isObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The data as typed: required, JSON, and a JSON object (spec section 5), each with its own message. */
const DataText = z.string().check(
  z.trim(),
  z.minLength(1, REQUIRED),
  z.refine((text) => text.trim() === '' || parseJson(text).ok, { message: INVALID_JSON, abort: true }),
  z.refine(
    (text) => {
      const parsed = parseJson(text);
      return !parsed.ok || isObject(parsed.value);
    },
    { message: LICENCE_ERRORS.dataNotObject },
  ),
);

/** The text of a valid form's data, as the object the request carries. */
const withData = <T extends { data: string }>(values: T) => ({
  ...values,
  data: JSON.parse(values.data) as Record<string, unknown>,
});

/**
 * The creation form's schema: the request's own rules (common/api/licences.ts), the data checked as
 * text, and the valid values turned into the request's body.
 */
export const CreateLicenceForm = z.pipe(
  z
    .object({ ...CreateLicenceBody.shape, data: DataText })
    .check(
      z.refine(
        (body) => !isCalendarDay(body.startDate) || !isCalendarDay(body.endDate) || body.endDate > body.startDate,
        { path: ['endDate'], message: LICENCE_ERRORS.endBeforeStart },
      ),
    ),
  z.transform(withData),
);

/** The renewal form's schema; the end date also after the licence's start, which the form does not change. */
export const renewLicenceForm = (startDate: string) =>
  z.pipe(
    z.object({ ...UpdateLicenceBody.shape, data: DataText }).check(
      z.refine((body) => !isCalendarDay(body.endDate) || body.endDate > startDate, {
        path: ['endDate'],
        message: LICENCE_ERRORS.endBeforeStart,
      }),
    ),
    z.transform(withData),
  );

/**
 * A new licence starts today and runs a year; its data, required, starts as the empty object, so
 * the form can be sent as it opens and the user adds what the licence carries.
 */
export function createValues(productKey: string, today: string = localToday()): LicenceFormValues {
  return {
    productKey,
    accessLevel: 'stable',
    startDate: today,
    endDate: addMonths(today, 12),
    data: '{}',
    hasEntityResolution: false,
  };
}

/** A renewal starts from the licence as it is. */
export function renewValues(licence: Licence): LicenceFormValues {
  return {
    productKey: licence.productKey,
    accessLevel: licence.accessLevel,
    startDate: licence.startDate,
    endDate: licence.endDate,
    data: JSON.stringify(licence.data, null, 2),
    hasEntityResolution: licence.hasEntityResolution,
  };
}
