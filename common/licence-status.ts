import type { LicenceStatus } from './domain';

/**
 * A licence's status (decisions.md, "Licences and downloads"): `valid`; `warning` when it ends within
 * 3 months; `grace` for 30 days after its end date (shown as warning); `invalid` after that. The server
 * and the client compute it with this one function.
 *
 * Licence dates are calendar days (`YYYY-MM-DD`), stored and compared as such: never turned into a
 * local time, so no time zone or daylight-saving change moves them by a day. A licence is in force
 * through the whole of its end date.
 */

/** A licence ending within this many calendar months is in `warning` (spec section 9). */
const LICENCE_WARNING_MONTHS = 3;
/** Days after its end date during which a licence is in `grace` (still downloadable). */
export const LICENCE_GRACE_DAYS = 30;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `value` is a real calendar day written `YYYY-MM-DD` (2026-02-30 is not). */
export function isCalendarDay(value: string): boolean {
  const match = DAY.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function parts(day: string): [number, number, number] {
  const match = DAY.exec(day);
  if (!match) throw new Error(`not a calendar day: ${day}`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

const write = (date: Date) => date.toISOString().slice(0, 10);

/** `day` plus `count` days (negative to go back). */
export function addDays(day: string, count: number): string {
  const [year, month, date] = parts(day);
  return write(new Date(Date.UTC(year, month - 1, date + count)));
}

/** `day` plus `count` calendar months, kept within the month (31 Jan + 1 month = 28 or 29 Feb). */
export function addMonths(day: string, count: number): string {
  const [year, month, date] = parts(day);
  const last = new Date(Date.UTC(year, month - 1 + count + 1, 0)).getUTCDate();
  return write(new Date(Date.UTC(year, month - 1 + count, Math.min(date, last))));
}

/** Today as the server counts it: the UTC calendar day. */
export function utcToday(now: Date = new Date()): string {
  return write(now);
}

/** Today as a person counts it: the calendar day of the viewer's own time zone (the client's). */
export function localToday(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The status of a licence ending on `endDate`, on `today` (both `YYYY-MM-DD`). */
export function licenceStatus(endDate: string, today: string): LicenceStatus {
  if (today <= endDate) {
    return endDate <= addMonths(today, LICENCE_WARNING_MONTHS) ? 'warning' : 'valid';
  }
  return today <= addDays(endDate, LICENCE_GRACE_DAYS) ? 'grace' : 'invalid';
}

/** Downloads (licence file, versions, secret URL) are allowed while valid, warning or grace. */
export function allowsDownload(status: LicenceStatus): boolean {
  return status !== 'invalid';
}

/** The colour a status is shown in (spec section 4): grace is shown as warning. */
export const LICENCE_STATUS_COLOURS: Record<LicenceStatus, 'green' | 'orange' | 'red'> = {
  valid: 'green',
  warning: 'orange',
  grace: 'orange',
  invalid: 'red',
};
