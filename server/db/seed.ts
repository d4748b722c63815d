import crypto from 'node:crypto';
import type { Transaction } from 'kysely';
import type { AccessLevel, PaymentStatus, VersionType } from '../../common/domain';
import type { MemberRole, UserType } from '../../common/roles';
import { hashPassword } from '../modules/auth/password';
import { type DB, isUniqueViolation } from '.';
import type { Database } from './schema';

/**
 * Demo data for a first look (`npm start` on an empty database): one account per role, a few
 * customers, products, versions, licences in every state and a cloud instance. README.md lists the
 * accounts; tests log in with this same list.
 */

/** Shared by every demo account; it satisfies the password rule. */
export const DEMO_PASSWORD = 'Demo-Password-2024!';

export interface DemoAccount {
  email: string;
  fullName: string;
  type: UserType;
  /** the role the account shows: its type for staff, its membership role for clients */
  role: UserType | MemberRole;
  /** demo customers the account is a member of (by name), with that role */
  customers: string[];
}

export const DEMO_CUSTOMER_NAME = 'Acme Analytics';

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  { email: 'admin@demo.portal', fullName: 'Alice Martin', type: 'admin', role: 'admin', customers: [] },
  {
    email: 'ae@demo.portal',
    fullName: 'Bruno Keller',
    type: 'accountExecutive',
    role: 'accountExecutive',
    // two customers, so the account picker (select-account) has something to offer
    customers: [DEMO_CUSTOMER_NAME, 'Globex Logistics'],
  },
  { email: 'pm@demo.portal', fullName: 'Priya Nair', type: 'productManager', role: 'productManager', customers: [] },
  {
    email: 'support@demo.portal',
    fullName: 'Samuel Okafor',
    type: 'supportEngineer',
    role: 'supportEngineer',
    customers: [],
  },
  {
    email: 'owner@demo.portal',
    fullName: 'Olivia Bennett',
    type: 'client',
    role: 'businessOwner',
    customers: [DEMO_CUSTOMER_NAME],
  },
  {
    email: 'tech@demo.portal',
    fullName: 'Tomás Herrera',
    type: 'client',
    role: 'technicalContact',
    customers: [DEMO_CUSTOMER_NAME],
  },
  {
    email: 'enduser@demo.portal',
    fullName: 'Emma Laurent',
    type: 'client',
    role: 'endUser',
    customers: [DEMO_CUSTOMER_NAME],
  },
];

interface DemoCustomer {
  name: string;
  customerKey: string;
  selfService: boolean;
  paymentStatus: PaymentStatus | null;
  billingEmail: string | null;
}

const CUSTOMERS: DemoCustomer[] = [
  {
    name: DEMO_CUSTOMER_NAME,
    customerKey: 'ACME7K2P9Q',
    selfService: false,
    paymentStatus: null,
    billingEmail: 'billing@acme-analytics.example',
  },
  { name: 'Globex Logistics', customerKey: 'GBXT4M8T2W', selfService: false, paymentStatus: null, billingEmail: null },
  // every licence expired: hidden from the default customer list, shown with "all!"
  { name: 'Initech Security', customerKey: 'NTCH5R3H7N', selfService: false, paymentStatus: null, billingEmail: null },
  { name: 'Northwind Labs', customerKey: 'NRTH6V9C3D', selfService: true, paymentStatus: 'trial', billingEmail: null },
];

const PRODUCTS = [
  {
    key: 'graph-server',
    name: 'Graph Server',
    description: 'Graph visualisation and investigation server, installed on your own infrastructure.',
    customizationType: 'lke' as const,
    isSaas: 0 as const,
  },
  {
    key: 'graph-toolkit',
    name: 'Graph Toolkit',
    description: 'JavaScript toolkit to build interactive graph visualisations in web applications.',
    customizationType: 'ogma' as const,
    isSaas: 0 as const,
  },
  {
    key: 'graph-cloud',
    name: 'Graph Cloud',
    description: 'Graph Server hosted and operated for you.',
    customizationType: 'none' as const,
    isSaas: 1 as const,
  },
];

/** [product, semVer, type, released this many days ago (null: a draft, unpublished)] */
const VERSIONS: [string, string, VersionType, number | null][] = [
  ['graph-server', '3.9.8', 'eol', 900],
  ['graph-server', '4.0.3', 'maintenance', 420],
  ['graph-server', '4.1.0', 'stable', 120],
  ['graph-server', '4.2.0-beta.2', 'beta', 20],
  ['graph-server', '4.3.0-alpha.1', 'alpha', null],
  ['graph-toolkit', '2.6.1', 'maintenance', 300],
  ['graph-toolkit', '2.7.0', 'stable', 60],
  ['graph-toolkit', '2.8.0-beta.1', 'beta', 10],
  ['graph-cloud', '1.4.0', 'stable', 45],
];

/** [customer, product, access level, start (days from today), end (days from today), data, entity resolution] */
const LICENCES: [string, string, AccessLevel, number, number, object, boolean][] = [
  [DEMO_CUSTOMER_NAME, 'graph-server', 'stable', -400, 330, { fixedLicenses: 5 }, true],
  // ends within 3 months: "warning"
  [
    DEMO_CUSTOMER_NAME,
    'graph-toolkit',
    'beta',
    -320,
    45,
    { fixedLicenses: 2, domains: ['acme-analytics.example'] },
    false,
  ],
  ['Globex Logistics', 'graph-server', 'alpha', -200, 500, { fixedLicenses: 10 }, false],
  // ended 10 days ago: "grace"
  ['Globex Logistics', 'graph-toolkit', 'stable', -375, -10, { fixedLicenses: 1 }, false],
  // long expired: "invalid"
  ['Initech Security', 'graph-server', 'stable', -800, -90, { fixedLicenses: 3 }, false],
  ['Northwind Labs', 'graph-cloud', 'stable', -5, 9, { fixedLicenses: 1, trial: true }, false],
];

const DAY_MS = 24 * 60 * 60 * 1000;
const random = () => crypto.randomBytes(24).toString('base64url');

/** Loads the demo data when the database has no user at all; returns whether it did. */
export async function seedDemoData(db: DB, today = new Date()): Promise<boolean> {
  const empty = async (q: DB | Transaction<Database>) =>
    Number(
      (
        await q
          .selectFrom('users')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ) === 0;
  if (!(await empty(db))) return false;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  try {
    return await db.transaction().execute(async (trx) => {
      if (!(await empty(trx))) return false;
      await insertDemoData(trx, passwordHash, today);
      return true;
    });
  } catch (error) {
    // another app node seeded the same empty database at the same moment
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

async function insertDemoData(trx: Transaction<Database>, passwordHash: string, today: Date) {
  const now = today.toISOString();
  const day = (offset: number) => new Date(today.getTime() + offset * DAY_MS).toISOString().slice(0, 10);

  const userIds = new Map<string, number>();
  for (const account of DEMO_ACCOUNTS) {
    const row = await trx
      .insertInto('users')
      .values({
        email: account.email,
        fullName: account.fullName,
        type: account.type,
        status: 'enabled',
        preferredLocale: 'en',
        passwordHash,
        createdAt: now,
        updatedAt: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    userIds.set(account.email, row.id);
  }

  const customerIds = new Map<string, number>();
  for (const customer of CUSTOMERS) {
    const row = await trx
      .insertInto('customers')
      .values({
        name: customer.name,
        customerKey: customer.customerKey,
        selfService: customer.selfService ? 1 : 0,
        paymentStatus: customer.paymentStatus,
        billingEmail: customer.billingEmail,
        crmId: null,
        createdAt: now,
        updatedAt: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    customerIds.set(customer.name, row.id);
  }

  for (const account of DEMO_ACCOUNTS) {
    for (const name of account.customers) {
      await trx
        .insertInto('memberships')
        .values({
          userId: userIds.get(account.email)!,
          customerId: customerIds.get(name)!,
          role: account.role as MemberRole,
          status: 'enabled',
          createdAt: now,
        })
        .execute();
    }
  }

  await trx
    .insertInto('products')
    .values(PRODUCTS.map((p) => ({ ...p, createdAt: now, updatedAt: now })))
    .execute();
  const productName = new Map(PRODUCTS.map((p) => [p.key, p.name]));
  await trx
    .insertInto('versions')
    .values(
      VERSIONS.map(([productKey, semVer, type, releasedDaysAgo]) => ({
        productKey,
        title: `${productName.get(productKey)} ${semVer}`,
        type,
        semVer,
        description: `## ${productName.get(productKey)} ${semVer}\n\n- Faster layouts on large graphs\n- Bug fixes`,
        releaseDate: releasedDaysAgo === null ? null : day(-releasedDaysAgo),
        published: releasedDaysAgo === null ? (0 as const) : (1 as const),
        createdAt: now,
        updatedAt: now,
      })),
    )
    .execute();

  const isSaas = new Map(PRODUCTS.map((p) => [p.key, p.isSaas]));
  await trx
    .insertInto('licences')
    .values(
      LICENCES.map(([customer, productKey, accessLevel, start, end, data, entityResolution]) => ({
        customerId: customerIds.get(customer)!,
        productKey,
        isSaas: isSaas.get(productKey)!,
        hasEntityResolution: entityResolution ? (1 as const) : (0 as const),
        accessLevel,
        startDate: day(start),
        endDate: day(end),
        data: JSON.stringify(data),
        downloadSecret: random(),
        customizationId: null,
        latestDownloadAt: null,
        createdAt: now,
        updatedAt: now,
      })),
    )
    .execute();

  await trx
    .insertInto('cloudInstances')
    .values({
      customerId: customerIds.get('Northwind Labs')!,
      name: 'northwind-graph',
      tier: 'Trial',
      status: 'provisioned',
      url: 'https://northwind-graph.cloud.example.com',
      deleteDataDelayInDays: 30,
      createdAt: now,
      updatedAt: now,
    })
    .execute();

  const acme = customerIds.get(DEMO_CUSTOMER_NAME)!;
  const owner = DEMO_ACCOUNTS.find((a) => a.role === 'businessOwner')!;
  const tech = DEMO_ACCOUNTS.find((a) => a.role === 'technicalContact')!;
  await trx
    .insertInto('auditLog')
    .values([
      {
        customerId: acme,
        actorId: userIds.get(tech.email)!,
        actorEmail: tech.email,
        action: 'acceptInvitation',
        data: JSON.stringify({ invitationFrom: owner.email }),
        createdAt: new Date(today.getTime() - 30 * DAY_MS).toISOString(),
      },
      {
        customerId: acme,
        actorId: userIds.get(tech.email)!,
        actorEmail: tech.email,
        action: 'downloadArtifact',
        data: JSON.stringify({
          productName: 'Graph Server',
          productVersion: '4.1.0',
          productPlatform: 'linux',
          anonymousDownload: false,
        }),
        createdAt: new Date(today.getTime() - 2 * DAY_MS).toISOString(),
      },
    ])
    .execute();

  await trx
    .insertInto('invitations')
    .values({
      key: random(),
      customerId: acme,
      inviterId: userIds.get(owner.email)!,
      invitedEmail: 'new.analyst@acme-analytics.example',
      invitedFullName: 'Noah Fischer',
      role: 'endUser',
      locale: 'en',
      state: 'pending',
      selfService: 0,
      signupData: null,
      sentAt: now,
      expiresAt: new Date(today.getTime() + 7 * DAY_MS).toISOString(),
      acceptedAt: null,
      acceptedUserId: null,
      createdAt: now,
    })
    .execute();
}
