import { describe, expect, it } from 'vitest';
import { CUSTOMER_KEY_ALPHABET, CUSTOMER_KEY_LENGTH, generateCustomerKey, isValidCustomerKey } from './customer-key';

const mathRandomInt = (n: number) => Math.floor(Math.random() * n);

describe('customerKey', () => {
  it('is valid with exactly 10 characters only', () => {
    expect(CUSTOMER_KEY_LENGTH).toBe(10);
    expect(isValidCustomerKey('ABCDEFGHJK')).toBe(true);
    expect(isValidCustomerKey('abc-123_xy')).toBe(true);
    expect(isValidCustomerKey('')).toBe(false);
    expect(isValidCustomerKey('ABCDEFGHJ')).toBe(false);
    expect(isValidCustomerKey('ABCDEFGHJKM')).toBe(false);
  });

  it('counts characters, not UTF-16 units', () => {
    expect(isValidCustomerKey('ÉÉÉÉÉÉÉÉÉÉ')).toBe(true);
    expect(isValidCustomerKey('😀😀😀😀😀')).toBe(false);
    expect(isValidCustomerKey('😀😀😀😀😀😀😀😀😀😀')).toBe(true);
  });

  it('has an alphabet of uppercase letters and digits without look-alikes', () => {
    expect(CUSTOMER_KEY_ALPHABET).toMatch(/^[A-Z2-9]+$/);
    for (const ambiguous of ['0', 'O', '1', 'I', 'L']) expect(CUSTOMER_KEY_ALPHABET).not.toContain(ambiguous);
    expect(new Set(CUSTOMER_KEY_ALPHABET).size).toBe(CUSTOMER_KEY_ALPHABET.length);
  });

  it('generates valid 10-character keys from the alphabet', () => {
    for (let i = 0; i < 200; i++) {
      const key = generateCustomerKey(mathRandomInt);
      expect(key).toHaveLength(10);
      expect(isValidCustomerKey(key)).toBe(true);
      for (const ch of key) expect(CUSTOMER_KEY_ALPHABET).toContain(ch);
    }
  });

  it('uses the random source it is given, over the whole alphabet', () => {
    expect(generateCustomerKey(() => 0)).toBe(CUSTOMER_KEY_ALPHABET[0].repeat(10));
    const last = CUSTOMER_KEY_ALPHABET.length - 1;
    expect(generateCustomerKey(() => last)).toBe(CUSTOMER_KEY_ALPHABET[last].repeat(10));
    const bounds: number[] = [];
    generateCustomerKey((n) => {
      bounds.push(n);
      return 0;
    });
    expect(bounds).toEqual(Array(10).fill(CUSTOMER_KEY_ALPHABET.length));
  });
});
