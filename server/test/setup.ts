import { useTestPasswordHashing } from '../modules/auth/password';

// Before each API test file: passwords hashed with the tests' light argon2id profile
// (server/modules/auth/password.ts); server/modules/auth/password.test.ts checks the production one.
useTestPasswordHashing();
