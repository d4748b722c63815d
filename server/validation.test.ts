import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../client/i18n/en.json';
import fr from '../client/i18n/fr.json';
import { LICENCE_ERRORS } from '../common/api/licences';
import { ACCESS_LEVELS } from '../common/domain';
import { addDays, utcToday } from '../common/licence-status';
import { createCustomer, createProduct, signedIn } from './test/factories';
import { createTestApp, request, type TestApp } from './test/harness';
import { englishTextOf, VALIDATION_KEYS } from './validation';

/** A key's text in one language's texts; undefined when the key names no text. */
function textOf(texts: unknown, key: string): unknown {
  let node = texts;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, part)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/** Something shaped like a message key (`errors.required`, `licences.errors.dataNotObject`). */
const KEY_LIKE = /\b[a-z][A-Za-z_]*(\.[a-z][A-Za-z_]*)+\b/;

describe('the message keys of validation problems', () => {
  it('each have an English and a French text', () => {
    for (const key of Object.values(VALIDATION_KEYS)) {
      expect(textOf(en, key), key).toBeTypeOf('string');
      expect(textOf(fr, key), key).toBeTypeOf('string');
    }
  });

  it('are read from the English texts of the client, the one source of the words', () => {
    expect(englishTextOf('errors.required')).toBe(textOf(en, 'errors.required'));
    expect(englishTextOf('errors')).toBeUndefined();
    expect(englishTextOf('errors.noSuchKey')).toBeUndefined();
    expect(englishTextOf('This field is required.')).toBeUndefined();
  });
});

describe('a request its schema refuses', () => {
  let t: TestApp;
  let admin: string;
  let customerId: number;
  const today = utcToday();
  const valid = () => ({
    productKey: 'validation-product',
    accessLevel: 'stable',
    startDate: today,
    endDate: addDays(today, 30),
    data: { licences: 5 },
  });

  beforeAll(async () => {
    t = await createTestApp();
    const { db } = t.app.ctx;
    customerId = (await createCustomer(db, { name: 'Validation' })).id;
    await createProduct(db, { key: 'validation-product', name: 'Validation Product' });
    admin = (await signedIn(t.app, 'admin')).cookie;
  });
  afterAll(async () => t?.close());

  /**
   * Creates a licence with `change` made to a valid body: a 400 whose details name message keys with
   * a text in both languages, and whose message is English, naming none of them.
   */
  async function refusal(change: Record<string, unknown>) {
    const response = await request(t.app, admin, {
      method: 'POST',
      url: `/api/customers/${customerId}/licenses`,
      payload: { ...valid(), ...change },
    });
    expect(response.statusCode, response.body).toBe(400);
    const { code, message, details } = response.json().error as {
      code: string;
      message: string;
      details: { path: string; message: string; values?: Record<string, unknown> }[];
    };
    expect(code).toBe('validation_error');
    expect(details.length).toBeGreaterThan(0);
    for (const detail of details) {
      expect(textOf(en, detail.message), detail.message).toBeTypeOf('string');
      expect(textOf(fr, detail.message), detail.message).toBeTypeOf('string');
      expect(message).not.toContain(detail.message);
    }
    expect(message).not.toMatch(KEY_LIKE);
    return { message, details };
  }

  it('names an unknown value of a list with the allowed ones', async () => {
    expect(await refusal({ accessLevel: 'gold' })).toEqual({
      message: `accessLevel: This value is not one of those allowed: ${ACCESS_LEVELS.join(', ')}.`,
      details: [
        { path: 'accessLevel', message: 'errors.invalidOption', values: { allowed: ACCESS_LEVELS.join(', ') } },
      ],
    });
  });

  it('names a value of the wrong type', async () => {
    expect(await refusal({ hasEntityResolution: 'yes' })).toEqual({
      message: 'hasEntityResolution: This value is not of the expected type.',
      details: [{ path: 'hasEntityResolution', message: 'errors.invalidType' }],
    });
  });

  it('names a text too long with its limit', async () => {
    expect(await refusal({ productKey: 'x'.repeat(101) })).toEqual({
      message: 'productKey: This text must be at most 100 characters long.',
      details: [{ path: 'productKey', message: 'errors.tooLong', values: { max: 100 } }],
    });
  });

  it("names a refinement's problem with the key the schema gives it", async () => {
    expect(await refusal({ startDate: addDays(today, -10), endDate: addDays(today, -1) })).toEqual({
      message: 'endDate: The end date must be in the future.',
      details: [{ path: 'endDate', message: LICENCE_ERRORS.endNotInFuture }],
    });
    // the key a schema gives a type's problem is the message's English text, not glued into it
    expect(await refusal({ data: [1, 2] })).toEqual({
      message: 'data: The data must be a JSON object, for example {"licences": 5}.',
      details: [{ path: 'data', message: LICENCE_ERRORS.dataNotObject }],
    });
  });

  it('tells a missing value from a wrong one, and names an unknown field', async () => {
    expect(await refusal({ productKey: undefined })).toEqual({
      message: 'productKey: This field is required.',
      details: [{ path: 'productKey', message: 'errors.required' }],
    });
    expect(await refusal({ downloadSecret: 'x', isAdmin: true })).toEqual({
      message: 'downloadSecret: This field is not expected here.',
      details: [
        { path: 'downloadSecret', message: 'errors.unknownField' },
        { path: 'isAdmin', message: 'errors.unknownField' },
      ],
    });
  });
});
