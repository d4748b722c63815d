import { schemaResolver } from '@mantine/form';
import { describe, expect, it } from 'vitest';
import { addDays, addMonths, utcToday } from '../../../../common/licence-status';
import type { FormSchema } from '../../../components/use-schema-form';
import { CreateLicenceForm, createValues, INVALID_JSON, renewLicenceForm } from './licence-form';

/** The message each refused field shows, as the form reads the schema (its first problem per field). */
const problems = (schema: FormSchema, values: unknown) =>
  schemaResolver(schema, { sync: true })(values as Record<string, unknown>);

const today = utcToday();
const valid = { ...createValues('graph-server', today), data: '{"fixedLicenses": 3}' };

describe('the licence form schemas', () => {
  it('turn a valid creation form into the request body, the data as an object', () => {
    expect(CreateLicenceForm.parse(valid)).toEqual({
      productKey: 'graph-server',
      accessLevel: 'stable',
      startDate: today,
      endDate: addMonths(today, 12),
      data: { fixedLicenses: 3 },
      hasEntityResolution: false,
    });
  });

  it('accept a new licence as the form opens: the required data starts as an empty object', () => {
    const opened = createValues('graph-server', today);
    expect(opened.data).toBe('{}');
    expect(CreateLicenceForm.safeParse(opened)).toMatchObject({ success: true, data: { data: {} } });
  });

  it('say which rule the data breaks: required, JSON, an object', () => {
    expect(problems(CreateLicenceForm, { ...valid, data: '  ' })).toEqual({ data: 'errors.required' });
    expect(problems(CreateLicenceForm, { ...valid, data: '{"a": ' })).toEqual({ data: INVALID_JSON });
    expect(problems(CreateLicenceForm, { ...valid, data: '[1]' })).toEqual({
      data: 'licences.errors.dataNotObject',
    });
  });

  it('refuse an end date not in the future, or not after the start, and a day that does not exist', () => {
    expect(problems(CreateLicenceForm, { ...valid, startDate: addDays(today, -10), endDate: today })).toEqual({
      endDate: 'licences.errors.endNotInFuture',
    });
    const start = addDays(today, 40);
    expect(problems(CreateLicenceForm, { ...valid, startDate: start, endDate: addDays(today, 20) })).toEqual({
      endDate: 'licences.errors.endBeforeStart',
    });
    expect(problems(CreateLicenceForm, { ...valid, startDate: '2026-02-30' })).toEqual({
      startDate: 'licences.errors.invalidDate',
    });
    expect(problems(CreateLicenceForm, { ...valid, startDate: '' })).toEqual({
      startDate: 'errors.required',
    });
  });

  it('renewal: only what a renewal sends, the end after the licence’s own start', () => {
    const schema = renewLicenceForm(addDays(today, 100));
    const renewal = { ...valid, endDate: addDays(today, 50), accessLevel: 'beta' as const };
    expect(problems(schema, renewal)).toEqual({ endDate: 'licences.errors.endBeforeStart' });
    expect(renewLicenceForm('2020-01-01').parse(renewal)).toEqual({
      accessLevel: 'beta',
      endDate: addDays(today, 50),
      data: { fixedLicenses: 3 },
      hasEntityResolution: false,
    });
  });
});
