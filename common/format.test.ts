import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatDayMonthYear, formatLocalDayMonthYear, initials } from './format';

describe('initials', () => {
  it('takes the first letter of at most two words, uppercased', () => {
    expect(initials('acme analytics')).toBe('AA');
    expect(initials('Globex Logistics International')).toBe('GL');
    expect(initials('Initech')).toBe('I');
    expect(initials('élodie durand')).toBe('ÉD');
  });

  it('ignores extra spaces and empty names', () => {
    expect(initials('   north    wind  ')).toBe('NW');
    expect(initials('\tA\n b ')).toBe('AB');
    expect(initials('')).toBe('');
    expect(initials('   ')).toBe('');
  });

  it('keeps a character outside the basic plane whole', () => {
    expect(initials('😀 smile')).toBe('😀S');
  });
});

describe('date formats', () => {
  it('formats the default date as YYYY-MM-DD in UTC', () => {
    expect(formatDate('2024-03-05T23:30:00Z')).toBe('2024-03-05');
    expect(formatDate(new Date(Date.UTC(2025, 11, 31)))).toBe('2025-12-31');
    expect(formatDate('2024-02-29')).toBe('2024-02-29');
  });

  it('formats licence dates as DD MMM YYYY in English and French', () => {
    expect(formatDayMonthYear('2025-01-05', 'en')).toBe('05 Jan 2025');
    expect(formatDayMonthYear('2025-01-05', 'fr')).toBe('05 janv. 2025');
    expect(formatDayMonthYear('2024-08-15', 'en')).toBe('15 Aug 2024');
    expect(formatDayMonthYear('2024-08-15', 'fr')).toBe('15 août 2024');
    expect(formatDayMonthYear('2023-12-31T12:00:00Z', 'fr')).toBe('31 déc. 2023');
  });

  it('formats log dates as DD MMM YYYY HH:mm in local time', () => {
    const local = new Date(2024, 6, 4, 9, 5);
    expect(formatDateTime(local, 'en')).toBe('04 Jul 2024 09:05');
    expect(formatDateTime(local, 'fr')).toBe('04 juil. 2024 09:05');
  });

  it('formats a moment as the day it was where the viewer is, DD MMM YYYY', () => {
    // 00:30 local on 1 March is 1 March for the viewer, whatever day it was in UTC
    const justAfterMidnight = new Date(2025, 2, 1, 0, 30);
    expect(formatLocalDayMonthYear(justAfterMidnight.toISOString(), 'en')).toBe('01 Mar 2025');
    expect(formatLocalDayMonthYear(new Date(2025, 1, 28, 23, 30).toISOString(), 'fr')).toBe('28 févr. 2025');
    expect(formatLocalDayMonthYear('not a date', 'en')).toBe('');
  });

  it('gives an empty text for an invalid date', () => {
    expect(formatDate('not a date')).toBe('');
    expect(formatDayMonthYear('not a date', 'en')).toBe('');
    expect(formatDateTime('not a date', 'fr')).toBe('');
  });
});
