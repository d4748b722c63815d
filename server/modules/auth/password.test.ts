import { afterEach, describe, expect, it } from 'vitest';
import { hashPassword, useTestPasswordHashing, verifyPassword } from './password';

/** What a stored password is: argon2id at OWASP's profile, whatever the tests use to go faster. */
describe('password hashing', () => {
  afterEach(() => useTestPasswordHashing());

  it('stores argon2id with 19 MiB and 2 passes, each hash with a salt of its own', async () => {
    useTestPasswordHashing(false);
    const first = await hashPassword('Correct-Horse-Battery-9');
    const second = await hashPassword('Correct-Horse-Battery-9');
    expect(first).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(second).not.toBe(first);
    expect(await verifyPassword(first, 'Correct-Horse-Battery-9')).toBe(true);
    expect(await verifyPassword(first, 'Correct-Horse-Battery-8')).toBe(false);
  });

  it('verifies a hash of either profile, since each records its own parameters', async () => {
    const light = await hashPassword('Correct-Horse-Battery-9');
    expect(light).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    useTestPasswordHashing(false);
    expect(await verifyPassword(light, 'Correct-Horse-Battery-9')).toBe(true);
    expect(await verifyPassword(null, 'Correct-Horse-Battery-9')).toBe(false);
  });

  it('refuses the light profile in production', () => {
    const environment = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      expect(() => useTestPasswordHashing()).toThrow(/for tests only/);
    } finally {
      process.env.NODE_ENV = environment;
    }
  });
});
