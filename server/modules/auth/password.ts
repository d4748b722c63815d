import { hash, verify } from '@node-rs/argon2';

/** argon2id with OWASP's second recommended profile (19 MiB, 2 passes): what every stored password gets. */
const PASSWORD_HASH_OPTIONS = { algorithm: 2 as const, memoryCost: 19456, timeCost: 2, parallelism: 1 };

/**
 * The API tests' profile (server/test/setup.ts): argon2id still, with 1 MiB and one pass, so the
 * thousands of sign-ins and password changes the tests make cost a millisecond each instead of 25.
 * A hash records its own parameters, so verification reads either kind; what production stores is
 * checked in password.test.ts. Refused outside tests.
 */
const TEST_OPTIONS = { ...PASSWORD_HASH_OPTIONS, memoryCost: 1024, timeCost: 1 };

let options: typeof PASSWORD_HASH_OPTIONS = PASSWORD_HASH_OPTIONS;

export function useTestPasswordHashing(on = true): void {
  if (on && process.env.NODE_ENV === 'production') throw new Error('The test password hashing is for tests only');
  options = on ? TEST_OPTIONS : PASSWORD_HASH_OPTIONS;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) {
    // Same work whether or not the account has a password, so timing does not tell.
    await hash(password, options);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
