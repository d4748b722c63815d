import type { Locale } from './roles';

/** Initials (spec section 9): first letters of words, uppercased, at most 2. */
export function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => [...word][0]?.toLocaleUpperCase() ?? '')
    .join('');
}

const MONTHS: Record<Locale, readonly string[]> = {
  en: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
  fr: ['janv.', 'févr.', 'mars', 'avr.', 'mai', 'juin', 'juil.', 'août', 'sept.', 'oct.', 'nov.', 'déc.'],
};

const pad = (n: number) => String(n).padStart(2, '0');

function toDate(value: string | Date): Date | null {
  const date = typeof value === 'string' ? new Date(value) : value;
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Default date format YYYY-MM-DD (UTC). */
export function formatDate(value: string | Date): string {
  const d = toDate(value);
  if (!d) return '';
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** Licence dates: DD MMM YYYY (UTC). */
export function formatDayMonthYear(value: string | Date, locale: Locale): string {
  const d = toDate(value);
  if (!d) return '';
  return `${pad(d.getUTCDate())} ${MONTHS[locale][d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/**
 * A moment (a timestamp, like a licence's latest download) as the day it was in the viewer's time
 * zone: DD MMM YYYY (local). Licence dates, which are calendar days, use formatDayMonthYear.
 */
export function formatLocalDayMonthYear(value: string | Date, locale: Locale): string {
  const d = toDate(value);
  if (!d) return '';
  return `${pad(d.getDate())} ${MONTHS[locale][d.getMonth()]} ${d.getFullYear()}`;
}

/** Log dates: DD MMM YYYY HH:mm, in the viewer's time zone (local). */
export function formatDateTime(value: string | Date, locale: Locale): string {
  const d = toDate(value);
  if (!d) return '';
  return `${pad(d.getDate())} ${MONTHS[locale][d.getMonth()]} ${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
