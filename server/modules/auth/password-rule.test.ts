import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../seed/demo';
import { TEST_PASSWORD } from '../../test/factories';
import { assertPasswordAcceptable, passwordProblem } from './password-rule';

/** The rule where passwords are set (decision 085): common/'s rule, then no common or breached password. */
const jane = { email: 'jane.doe@example.com', names: ['Jane Doe'] };

describe('passwordProblem', () => {
  it('refuses common passwords dressed up to pass the character rules', () => {
    for (const password of [
      'Password12345!!',
      'P@ssw0rd12345!!',
      'Qwerty123456789!',
      '!!Iloveyou2024!!',
      'Sunshine-2024-!!',
      'Qwertyuiop-12345',
    ]) {
      expect(passwordProblem(password, jane), password).toBe('password.error.common');
    }
  });

  it('refuses a password made of the context before looking at the list', () => {
    expect(passwordProblem('Jane.Doe@example.com1!', jane)).toBe('password.error.personal');
    expect(passwordProblem('Example-Jane-Doe-42!', jane)).toBe('password.error.personal');
  });

  it('keeps the character rules first', () => {
    expect(passwordProblem('Password1!', jane)).toBe('password.error.too_short');
    expect(passwordProblem('password12345!!!', jane)).toBe('password.error.no_uppercase');
  });

  it('accepts passwords of its own, the demo and test ones included', () => {
    for (const password of [
      'Tr4il-Sunset-Kettle-81!',
      'Zq7#mVx2!pLr9@Kd',
      'Jane-Sunset-Kettle-81!',
      DEMO_PASSWORD,
      TEST_PASSWORD,
      'Aa1!' + 'Zq7#mVx2!pLr9@Kd'.repeat(15),
    ]) {
      expect(passwordProblem(password, jane), password).toBeNull();
    }
  });

  it('answers quickly, even for the longest password', () => {
    passwordProblem('Warm-Up-Password-0!', jane);
    const started = performance.now();
    // only the first 64 characters are estimated: the cost does not grow with the whole length
    passwordProblem('Aa1!' + 'password'.repeat(31) + 'xx', jane);
    passwordProblem('Aa1!' + 'x'.repeat(252), jane);
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it('is refused as a 400 on the password field with the rule key', () => {
    expect(() => assertPasswordAcceptable('Password12345!!', jane)).toThrow(
      expect.objectContaining({ statusCode: 400, details: [{ path: 'password', message: 'password.error.common' }] }),
    );
  });
});
