import { ROLES, type Role } from '../../common/roles';
import { DEMO_PASSWORD, DEMO_ACCOUNTS as SEEDED } from '../../server/seed/demo';
import type { Credentials } from './auth';

export interface DemoAccount extends Credentials {
  role: Role;
  fullName: string;
  customers: readonly string[];
}

const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);

/** The seed's own list, so the journeys sign in with exactly what was loaded. */
export const DEMO_ACCOUNTS: readonly DemoAccount[] = SEEDED.map((account) => {
  if (!isRole(account.role)) throw new Error(`Demo account ${account.email} has no role (${account.role})`);
  return {
    email: account.email,
    password: DEMO_PASSWORD,
    role: account.role,
    fullName: account.fullName,
    customers: account.customers,
  };
});

export function demoAccount(role: Role): DemoAccount {
  const account = DEMO_ACCOUNTS.find((a) => a.role === role);
  if (!account) throw new Error(`The demo seed has no ${role} account`);
  return account;
}
