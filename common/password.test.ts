import { describe, expect, it } from 'vitest';
import { checkPassword, isMadeOfContext, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, passwordReadings } from './password';

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

describe('passwords made of the context', () => {
  const jane = { email: 'jane.doe@example.com', names: ['Jane Doe'] };

  it('reads a password without its simple variations: case, leetspeak, digits and symbols around it', () => {
    expect(passwordReadings('P@ssw0rd12345!!')).toContain('password');
    expect(passwordReadings('Password12345!!')).toContain('password');
    expect(passwordReadings('!!J4ne-D0e-1985')).toContain('janedoe');
    expect(passwordReadings('Élodie-Été-2024!')).toContain('elodieete');
  });

  it("refuses the e-mail address, its parts, the name and the portal's name, with variations", () => {
    for (const password of [
      'Jane.Doe@example.com1!',
      'jane.doe@EXAMPLE.com-2024',
      'JaneDoe-Example-1985!',
      'J4n3-D0e-Ex4mple!!!',
      '1985!!Doe.Jane.Example',
      'Example.com-Jane-42!',
      'Graph-Portal-2024-Jane!',
      'Portail-Graph-123456!',
    ]) {
      expect(checkPassword(password, jane), password).toBe('password.error.personal');
    }
    // the portal's name is context for everyone
    expect(checkPassword('GraphPortal-2024!!')).toBe('password.error.personal');
  });

  it('accepts a password that only contains a context word among others of its own', () => {
    expect(checkPassword('Jane-Sunset-Kettle-81!', jane)).toBeNull();
    expect(checkPassword('Tr4il-Sunset-Kettle-81!', jane)).toBeNull();
    // short names are no words to look for; the rule's characters still apply first
    expect(isMadeOfContext('Al-Bo-7392-Qx!Zt', { names: ['Al Bo'] })).toBe(false);
    expect(checkPassword('jane.doe@example.com', jane)).toBe('password.error.no_uppercase');
  });
});
