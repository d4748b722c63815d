import type { Account } from 'oidc-provider';
import {
  CUSTOMER_CAPABILITIES,
  type CustomerCapability,
  GLOBAL_CAPABILITIES,
  type GlobalCapability,
} from '../../../common/permissions';
import { deriveRole, globalRole } from '../../../common/roles';
import type { AppContext } from '../../context';
import { holds, holdsGlobally } from '../../policy';
import * as repo from './repo';

/** A relying party reads at most this many customers of one user (a staff user sees every customer). */
const PORTAL_CLAIM_CUSTOMERS = 200;

/** The claims each scope releases (docs/oidc.md). */
export const OIDC_CLAIMS = {
  openid: ['sub'],
  email: ['email', 'email_verified'],
  profile: ['name', 'locale'],
  portal: ['portal'],
} as const;

/** The custom claim of the `portal` scope: the user's type, staff capabilities and customers with roles. */
interface PortalClaim {
  type: string;
  /** the staff role held everywhere; null for account executives and clients */
  globalRole: string | null;
  /** staff capabilities (common/permissions.ts), held whatever the customer */
  capabilities: GlobalCapability[];
  /** true: every customer, as staff (their customers are not listed) */
  allCustomers: boolean;
  customers: { id: number; name: string; customerKey: string; role: string; capabilities: CustomerCapability[] }[];
}

/**
 * The customers and roles of the `portal` scope, derived by the policy layer the API enforces with
 * (decision 056: `deriveRole`, `holds`, `holdsGlobally`), so a relying party authorises by
 * customer as the portal would.
 */
async function portalClaim(ctx: AppContext, user: NonNullable<Awaited<ReturnType<typeof repo.findAccountUser>>>) {
  const staffRole = globalRole(user.type);
  const memberships = staffRole ? [] : await repo.membershipsOf(ctx.db, user.id, PORTAL_CLAIM_CUSTOMERS);
  const customers: PortalClaim['customers'] = [];
  for (const m of memberships) {
    const role = deriveRole(user.type, m.role);
    if (!role) continue;
    const capabilities = (Object.keys(CUSTOMER_CAPABILITIES) as CustomerCapability[]).filter((c) => holds({ role }, c));
    customers.push({ id: m.id, name: m.name, customerKey: m.customerKey, role, capabilities });
  }
  return {
    type: user.type,
    globalRole: staffRole,
    capabilities: (Object.keys(GLOBAL_CAPABILITIES) as GlobalCapability[]).filter((c) => holdsGlobally(user, c)),
    allCustomers: staffRole !== null,
    customers,
  } satisfies PortalClaim;
}

/** The provider's `findAccount`: an enabled user by id (the subject), with the claims its scopes ask for. */
export async function findAccount(ctx: AppContext, sub: string): Promise<Account | undefined> {
  if (!/^[1-9]\d{0,9}$/.test(sub)) return undefined;
  const user = await repo.findAccountUser(ctx.db, Number(sub));
  if (!user || user.status !== 'enabled') return undefined;
  return {
    accountId: sub,
    async claims(_use, scope) {
      const scopes = new Set(scope.split(' '));
      return {
        sub,
        email: user.email,
        // Every account's address was proven by a link sent to it (invitation, sign-up confirmation,
        // first-password link, e-mail change): docs/oidc.md.
        email_verified: true,
        name: user.fullName,
        locale: user.preferredLocale,
        ...(scopes.has('portal') ? { portal: await portalClaim(ctx, user) } : {}),
      };
    },
  };
}
