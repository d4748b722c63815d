import { describe, expect, it } from 'vitest';
import {
  addDays,
  addMonths,
  allowsDownload,
  isCalendarDay,
  LICENCE_GRACE_DAYS,
  LICENCE_STATUS_COLOURS,
  licenceStatus,
  localToday,
  utcToday,
} from './licence-status';

describe('licenceStatus (decisions.md, "Licences and downloads")', () => {
  const today = '2026-04-15';

  it('is warning on its end date: the licence is in force through the whole day', () => {
    expect(licenceStatus(today, today)).toBe('warning');
    expect(allowsDownload(licenceStatus(today, today))).toBe(true);
  });

  it('is warning up to exactly 3 months ahead, valid from the day after', () => {
    expect(licenceStatus('2026-07-15', today)).toBe('warning');
    expect(licenceStatus('2026-07-16', today)).toBe('valid');
    expect(licenceStatus('2027-04-15', today)).toBe('valid');
    expect(licenceStatus('2026-05-01', today)).toBe('warning');
  });

  it('counts 3 months from a month end within the month: 31 January + 3 months is 30 April', () => {
    expect(addMonths('2026-01-31', 3)).toBe('2026-04-30');
    expect(licenceStatus('2026-04-30', '2026-01-31')).toBe('warning');
    expect(licenceStatus('2026-05-01', '2026-01-31')).toBe('valid');
    // 30 November + 3 months is the end of February, 29th in a leap year
    expect(addMonths('2027-11-30', 3)).toBe('2028-02-29');
    expect(licenceStatus('2028-02-29', '2027-11-30')).toBe('warning');
    expect(licenceStatus('2028-03-01', '2027-11-30')).toBe('valid');
    // across a year end
    expect(licenceStatus('2027-01-15', '2026-10-15')).toBe('warning');
    expect(licenceStatus('2027-01-16', '2026-10-15')).toBe('valid');
  });

  it('is grace from the day after its end for 30 days, then invalid', () => {
    expect(LICENCE_GRACE_DAYS).toBe(30);
    const end = '2026-03-31';
    expect(licenceStatus(end, '2026-04-01')).toBe('grace');
    expect(licenceStatus(end, '2026-04-30')).toBe('grace');
    expect(licenceStatus(end, '2026-05-01')).toBe('invalid');
    expect(licenceStatus(end, '2027-01-01')).toBe('invalid');
    // grace across the end of February of a leap year
    expect(licenceStatus('2028-02-15', '2028-03-16')).toBe('grace');
    expect(licenceStatus('2028-02-15', '2028-03-17')).toBe('invalid');
  });

  it('allows downloads while valid, warning or grace; colours grace as warning', () => {
    expect(['valid', 'warning', 'grace', 'invalid'].map((s) => allowsDownload(s as never))).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect(LICENCE_STATUS_COLOURS).toEqual({ valid: 'green', warning: 'orange', grace: 'orange', invalid: 'red' });
  });
});

describe('calendar days', () => {
  it('knows which days exist', () => {
    expect(isCalendarDay('2026-02-28')).toBe(true);
    expect(isCalendarDay('2028-02-29')).toBe(true);
    for (const day of ['2026-02-29', '2026-02-30', '2026-04-31', '2026-13-01', '2026-00-10', '2026-1-5', '', 'x']) {
      expect(isCalendarDay(day), day).toBe(false);
    }
  });

  it('adds days and months across month and year ends', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2026-03-29', 1)).toBe('2026-03-30');
    expect(addMonths('2026-08-31', 1)).toBe('2026-09-30');
    expect(addMonths('2026-12-15', 3)).toBe('2027-03-15');
    expect(() => addDays('15/04/2026', 1)).toThrow();
  });

  it("takes the server's today as the UTC day, whatever the hour", () => {
    expect(utcToday(new Date('2026-03-29T00:30:00Z'))).toBe('2026-03-29');
    expect(utcToday(new Date('2026-03-28T23:59:59.999Z'))).toBe('2026-03-28');
  });

  it("takes the viewer's today from the local calendar, not from UTC", () => {
    // built from local components: whatever the zone of the run, these are local days
    expect(localToday(new Date(2026, 2, 29, 0, 30))).toBe('2026-03-29');
    expect(localToday(new Date(2026, 2, 28, 23, 59, 59))).toBe('2026-03-28');
    expect(localToday(new Date(2026, 11, 31, 23, 0))).toBe('2026-12-31');
  });
});
