import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { INVITATION_VALIDITY_DAYS } from '../../common/constants';
import type {
  AccessLevel,
  CustomizationType,
  CustomizationVersionType,
  MembershipStatus,
  Platform,
  VersionType,
} from '../../common/domain';
import type { Locale, MemberRole, UserStatus, UserType } from '../../common/roles';
import type { AppContext } from '../context';
import { type DB, nowIso } from '../db';
import { hashPassword } from '../modules/auth/password';
import { insertArtifact, insertProduct, insertVersion } from '../modules/catalogue/repo';
import { insertCustomer, insertInvitation, insertMembership } from '../modules/customers/store';
import { insertCustomization, insertLicence } from '../modules/licences/repo';
import { newInvitationKey, sealInvitationKey } from '../modules/invitations/keys';
import { insertUser } from '../modules/users/repo';
import { request, sessionCookieOf } from './harness';

/**
 * Test data builders. Every builder writes through the repository functions the application and the
 * demo seed use (no SQL of its own), and returns the stored row's id and what a test needs to use it.
 */
export const TEST_PASSWORD = 'Correct-Horse-Battery-9';

/**
 * One hash per password for the whole run: argon2id at the production cost is 25-30 ms of a core per
 * call, and the tests make thousands of users with the same password. The stored hash is a real one
 * (its own salt once, the production parameters), so signing in still verifies for real.
 */
const hashes = new Map<string, Promise<string>>();
function testHash(password: string): Promise<string> {
  let hashed = hashes.get(password);
  if (!hashed) {
    hashed = hashPassword(password);
    hashes.set(password, hashed);
  }
  return hashed;
}

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}${crypto.randomBytes(2).toString('hex')}`;
/**
 * Ten characters, as a customer key has: this process's count, then random ones for the other
 * processes. (The first ten of unique() were the clock and the count's first digits: two keys made
 * in the same millisecond once the count had two digits were the same.)
 */
const uniqueKey = () =>
  `${(counter++).toString(36).padStart(4, '0')}${crypto.randomBytes(3).toString('hex')}`.toUpperCase().slice(-10);

export async function createUser(
  db: DB,
  props: Partial<{
    email: string;
    fullName: string;
    type: UserType;
    status: UserStatus;
    preferredLocale: Locale;
    password: string | null;
  }> = {},
) {
  const email = props.email ?? `user-${unique()}@example.com`;
  const password = props.password === undefined ? TEST_PASSWORD : props.password;
  const user = await insertUser(db, {
    email,
    fullName: props.fullName ?? 'Test User',
    type: props.type ?? 'admin',
    status: props.status ?? 'enabled',
    preferredLocale: props.preferredLocale ?? 'en',
    passwordHash: password ? await testHash(password) : null,
  });
  return { id: user.id, email, password };
}

export async function createCustomer(
  db: DB,
  props: Partial<{ name: string; customerKey: string; selfService: boolean }> = {},
) {
  const { id } = await insertCustomer(db, {
    name: props.name ?? `Customer ${unique()}`,
    customerKey: props.customerKey ?? uniqueKey(),
    selfService: props.selfService ? 1 : 0,
    billingEmail: null,
    crmId: null,
  });
  return { id };
}

export async function addMembership(
  db: DB,
  userId: number,
  customerId: number,
  role: MemberRole,
  status: MembershipStatus = 'enabled',
) {
  return insertMembership(db, { userId, customerId, role, status });
}

export async function createProduct(
  db: DB,
  props: Partial<{ key: string; name: string; isSaas: boolean; customizationType: CustomizationType }> = {},
) {
  const key = props.key ?? `product-${unique()}`;
  return insertProduct(db, {
    key,
    name: props.name ?? `Product ${key}`,
    description: '',
    customizationType: props.customizationType ?? 'none',
    isSaas: props.isSaas ? 1 : 0,
  });
}

/** A version of the product (published unless told), with one artifact per platform given. */
export async function createVersion(
  db: DB,
  productKey: string,
  props: Partial<{ semVer: string; type: VersionType; platforms: Platform[]; published: boolean }> = {},
) {
  const published = props.published ?? true;
  const semVer = props.semVer ?? `1.0.${counter++}`;
  const { id } = await insertVersion(db, {
    productKey,
    title: `${productKey} ${semVer}`,
    type: props.type ?? 'stable',
    semVer,
    description: '',
    releaseDate: published ? nowIso().slice(0, 10) : null,
    published: published ? 1 : 0,
  });
  const artifacts: { id: number; platform: Platform }[] = [];
  for (const platform of props.platforms ?? []) {
    const artifact = await insertArtifact(db, {
      versionId: id,
      platform,
      fileName: `${productKey}-${semVer}-${platform}.zip`,
      storageKey: `${productKey}/${semVer}/${platform}`,
      size: 0,
      sha256: crypto.createHash('sha256').update(`${id}${platform}`).digest('hex'),
    });
    artifacts.push({ id: artifact.id, platform });
  }
  return { id, artifacts };
}

/**
 * A version whose artifacts have real stored bytes (through the context's storage), with their true
 * size and sha256: for tests that download them.
 */
export async function createVersionWithFiles(
  ctx: AppContext,
  productKey: string,
  props: {
    semVer?: string;
    type?: VersionType;
    published?: boolean;
    files: Partial<Record<Platform, { bytes: Buffer; fileName?: string }>>;
  },
) {
  const semVer = props.semVer ?? `1.0.${counter++}`;
  const { id } = await insertVersion(ctx.db, {
    productKey,
    title: `${productKey} ${semVer}`,
    type: props.type ?? 'stable',
    semVer,
    description: '',
    releaseDate: props.published === false ? null : nowIso().slice(0, 10),
    published: props.published === false ? 0 : 1,
  });
  const artifacts: Partial<Record<Platform, { id: number; storageKey: string; sha256: string; fileName: string }>> = {};
  for (const [platform, file] of Object.entries(props.files) as [Platform, { bytes: Buffer; fileName?: string }][]) {
    const storageKey = `${productKey}/${id}/${platform}/${crypto.randomUUID()}`;
    const stored = await ctx.storage.put(storageKey, Readable.from([file.bytes]), { maxBytes: file.bytes.length + 1 });
    const fileName = file.fileName ?? `${productKey}-${semVer}-${platform}.zip`;
    const artifact = await insertArtifact(ctx.db, {
      versionId: id,
      platform,
      fileName,
      storageKey,
      size: stored.size,
      sha256: stored.sha256,
    });
    artifacts[platform] = { id: artifact.id, storageKey, sha256: stored.sha256, fileName };
  }
  return { id, semVer, artifacts };
}

/** A licence of the customer for the product, valid from a year ago for a year from now by default. */
export async function createLicence(
  db: DB,
  customerId: number,
  productKey: string,
  props: Partial<{ accessLevel: AccessLevel; startDate: string; endDate: string }> = {},
) {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  return insertLicence(db, {
    customerId,
    productKey,
    hasEntityResolution: 0,
    accessLevel: props.accessLevel ?? 'stable',
    startDate: props.startDate ?? day(-365),
    endDate: props.endDate ?? day(365),
    data: '{}',
    downloadSecret: crypto.randomBytes(32).toString('base64url'),
    customizationId: null,
  });
}

/** A customization of the customer's product (not linked to a licence: the API does that). */
export async function createCustomization(
  db: DB,
  customerId: number,
  productKey: string,
  props: Partial<{ versionType: CustomizationVersionType; customConfig: object; enabled: boolean }> = {},
) {
  return insertCustomization(db, {
    customerId,
    productKey,
    versionType: props.versionType ?? 'stable',
    customConfig: JSON.stringify(props.customConfig ?? {}),
    enabled: props.enabled === false ? 0 : 1,
  });
}

/** A pending invitation; returns the key its link carries (only its hash is stored). */
export async function createInvitation(
  db: DB,
  customerId: number,
  props: Partial<{
    email: string;
    fullName: string;
    role: MemberRole;
    inviterId: number | null;
    expiresAt: string;
    locale: Locale;
    /** the server secret to seal the key under, so an admin can copy its link */
    sealWith: string;
  }> = {},
) {
  const key = newInvitationKey();
  const email = props.email ?? `invitee-${unique()}@example.com`;
  const { id } = await insertInvitation(db, {
    key,
    keySealed: props.sealWith ? sealInvitationKey(props.sealWith, key) : null,
    customerId,
    inviterId: props.inviterId ?? null,
    invitedEmail: email,
    invitedFullName: props.fullName ?? 'Invited Person',
    role: props.role ?? 'technicalContact',
    locale: props.locale ?? 'en',
    state: 'pending',
    selfService: 0,
    signupData: null,
    expiresAt: props.expiresAt ?? new Date(Date.now() + INVITATION_VALIDITY_DAYS * 86_400_000).toISOString(),
    acceptedAt: null,
    acceptedUserId: null,
  });
  return { id, key, email };
}

/** Signs in through the API and returns the session cookie. */
export async function login(app: FastifyInstance, email: string, password = TEST_PASSWORD): Promise<string> {
  const response = await request(app, null, { method: 'POST', url: '/api/auth/login', payload: { email, password } });
  return sessionCookieOf(response);
}

/** A signed-in user of the given type (and membership role for clients/account executives). */
export async function signedIn(app: FastifyInstance, type: UserType, customer?: { id: number; role: MemberRole }) {
  const user = await createUser(app.ctx.db, { type, fullName: `${type} user` });
  if (customer) await addMembership(app.ctx.db, user.id, customer.id, customer.role);
  const cookie = await login(app, user.email);
  return { ...user, cookie };
}
