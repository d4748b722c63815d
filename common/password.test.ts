import { describe, expect, it } from 'vitest';
import { checkPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './password';

describe('checkPassword', () => {
  it('accepts 15 characters with every kind, refuses 14', () => {
    expect(PASSWORD_MIN_LENGTH).toBe(15);
    expect(checkPassword('Abcdefghijk-12')).toBe('password.error.too_short');
    expect(checkPassword('Abcdefghijk-123')).toBeNull();
  });

  it('accepts up to 256 characters, refuses 257', () => {
    expect(PASSWORD_MAX_LENGTH).toBe(256);
    const head = 'Aa1!';
    expect(checkPassword(head + 'x'.repeat(252))).toBeNull();
    expect(checkPassword(head + 'x'.repeat(253))).toBe('password.error.too_long');
  });

  it('reports the first failing rule, in the spec order', () => {
    // every rule fails: length comes first
    expect(checkPassword('')).toBe('password.error.too_short');
    expect(checkPassword('ABC')).toBe('password.error.too_short');
    // long enough; no lowercase, no uppercase, no digit, no punctuation
    expect(checkPassword('               ')).toBe('password.error.no_lowercase');
    expect(checkPassword('ABCDEFGHIJKLMNOP')).toBe('password.error.no_lowercase');
    expect(checkPassword('abcdefghijklmnop')).toBe('password.error.no_uppercase');
    expect(checkPassword('abcdefghIJKLMNOP')).toBe('password.error.no_number');
    expect(checkPassword('abcdefghIJKLMNO1')).toBe('password.error.no_special_char');
    expect(checkPassword('abcdefghIJKLMN1!')).toBeNull();
  });

  it('counts any punctuation or symbol as special, and letters beyond ASCII', () => {
    for (const special of ['.', '-', '_', '?', '@', '#', '€', '+', ' ']) {
      const result = checkPassword(`abcdefghIJKLM12${special}`);
      if (special === ' ') expect(result).toBe('password.error.no_special_char');
      else expect(result, special).toBeNull();
    }
    expect(checkPassword('éèàçùêâîôûÉ1234!')).toBeNull();
    expect(checkPassword('ÉÈÀÇÙÊÂÎÔÛ123456!')).toBe('password.error.no_lowercase');
  });

  it('accepts the demo password', () => {
    expect(checkPassword('Demo-Password-2024!')).toBeNull();
  });
});
