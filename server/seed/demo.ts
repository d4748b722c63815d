import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import type { Transaction } from 'kysely';
import { INVITATION_VALIDITY_DAYS } from '../../common/constants';
import type { AccessLevel, CustomizationVersionType, Platform, VersionType } from '../../common/domain';
import type { MemberRole, UserType } from '../../common/roles';
import type { AuditAction } from '../../common/audit';
import { anonymousAuditActor, auditUser, insertAuditEntry } from '../modules/audit/repo';
import { hashPassword } from '../modules/auth/password';
import { insertSubscription } from '../modules/billing/repo';
import { insertCloudInstance } from '../modules/instances/repo';
import { insertArtifact, insertProduct, insertVersion } from '../modules/catalogue/repo';
import type { ArtifactStorage } from '../integrations/storage';
import { insertCustomer, insertInvitation, insertMembership } from '../modules/customers/store';
import { recordDownload } from '../modules/downloads/repo';
import { newInvitationKey, sealInvitationKey } from '../modules/invitations/keys';
import { linkLicences } from '../modules/customizations/repo';
import { insertCustomization, insertLicence } from '../modules/licences/repo';
import { anyUser, insertUser } from '../modules/users/repo';
import { type DB, isUniqueViolation } from '../db';
import type { Database } from '../db/schema';
import { seedDemoDownloads } from './downloads';
import { seedDemoNotifications } from './notifications';
import { seedDemoWebhooks } from './webhooks';

/**
 * Demo data for a first look (`npm start` on an empty database): one account per role, a few
 * customers, products, versions, licences in every state, a self-service customer on a trial
 * subscription with a cloud instance. Written through the same repository functions as the
 * application and the test factories. README.md lists the accounts; tests log in with this list.
 */

/** Shared by every demo account; it satisfies the password rule. */
export const DEMO_PASSWORD = 'Demo-Password-2024!';

interface DemoAccount {
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

/**
 * More members of the demo customers, enabled and disabled, so the members sections have rows to
 * manage. They sign in with the demo password too, but README.md lists only the accounts above.
 */
export const DEMO_TEAM: readonly {
  email: string;
  fullName: string;
  customer: string;
  role: MemberRole;
  status: 'enabled' | 'disabled';
}[] = [
  {
    email: 'lena.vogel@acme-analytics.example',
    fullName: 'Lena Vogel',
    customer: DEMO_CUSTOMER_NAME,
    role: 'technicalContact',
    status: 'enabled',
  },
  {
    email: 'marc.dubois@acme-analytics.example',
    fullName: 'Marc Dubois',
    customer: DEMO_CUSTOMER_NAME,
    role: 'endUser',
    status: 'disabled',
  },
  {
    email: 'grace.lee@globex.example',
    fullName: 'Grace Lee',
    customer: 'Globex Logistics',
    role: 'businessOwner',
    status: 'enabled',
  },
  {
    email: 'omar.haddad@globex.example',
    fullName: 'Omar Haddad',
    customer: 'Globex Logistics',
    role: 'technicalContact',
    status: 'disabled',
  },
  // the self-service customer's project manager, who sees its cloud instance (docs/instances.md)
  {
    email: 'nina.park@northwind.example',
    fullName: 'Nina Park',
    customer: 'Northwind Labs',
    role: 'businessOwner',
    status: 'enabled',
  },
];

/** Pending invitations of the demo customers: [customer, e-mail, full name, role, sent this many days ago] (7 or more: expired). */
const DEMO_INVITATIONS: [string, string, string, MemberRole, number][] = [
  [DEMO_CUSTOMER_NAME, 'new.analyst@acme-analytics.example', 'Noah Fischer', 'endUser', 0],
  [DEMO_CUSTOMER_NAME, 'sara.costa@acme-analytics.example', 'Sara Costa', 'technicalContact', 10],
  ['Globex Logistics', 'ivan.petrov@globex.example', 'Ivan Petrov', 'technicalContact', 1],
  ['Globex Logistics', 'julia.nowak@globex.example', 'Julia Nowak', 'endUser', 9],
];

interface DemoCustomer {
  name: string;
  customerKey: string;
  selfService: 0 | 1;
  billingEmail: string | null;
  /** days left of the trial subscription of a self-service customer; others have no subscription */
  trial?: number;
}

const CUSTOMERS: DemoCustomer[] = [
  {
    name: DEMO_CUSTOMER_NAME,
    customerKey: 'ACME7K2P9Q',
    selfService: 0,
    billingEmail: 'billing@acme-analytics.example',
  },
  { name: 'Globex Logistics', customerKey: 'GBXT4M8T2W', selfService: 0, billingEmail: null },
  // every licence expired: hidden from the default customer list, shown with "all!"
  { name: 'Initech Security', customerKey: 'NTCH5R3H7N', selfService: 0, billingEmail: null },
  { name: 'Northwind Labs', customerKey: 'NRTH6V9C3D', selfService: 1, billingEmail: null, trial: 9 },
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
  {
    key: 'graph-connector',
    name: 'Graph Connector',
    description: 'Connectors that load relational, document and streaming sources into a graph database.',
    customizationType: 'none' as const,
    isSaas: 0 as const,
  },
  {
    key: 'graph-studio',
    name: 'Graph Studio',
    description: 'Desktop application to model, query and explore graph databases.',
    customizationType: 'none' as const,
    isSaas: 0 as const,
  },
];

/** Markdown release notes, as a release team writes them: a heading, a list, a link. */
function releaseNotes(productName: string, semVer: string, type: VersionType): string {
  const warning = type === 'alpha' || type === 'beta' ? `\n\n> A ${type} release: not for production use.` : '';
  return [
    `## ${productName} ${semVer}${warning}`,
    '',
    '- Faster layouts on large graphs',
    '- **Fixed**: exporting a selection keeps its styles',
    '',
    `Read the [upgrade guide](https://docs.example.com/upgrade/${semVer}) before updating.`,
  ].join('\n');
}

/** [product, semVer, type, released this many days ago (null: a draft, unpublished)] */
const VERSIONS: [string, string, VersionType, number | null][] = [
  ['graph-server', '3.9.8', 'eol', 900],
  ['graph-server', '4.0.3', 'maintenance', 420],
  ['graph-server', '4.1.0', 'stable', 120],
  ['graph-server', '4.2.0-beta.2', 'beta', 20],
  ['graph-server', '4.3.0-alpha.1', 'alpha', 5],
  ['graph-server', '4.3.0-alpha.2', 'alpha', null],
  ['graph-server', '4.1.1', 'stable', null],
  ['graph-toolkit', '2.5.4', 'eol', 700],
  ['graph-toolkit', '2.6.1', 'maintenance', 300],
  ['graph-toolkit', '2.7.0', 'stable', 60],
  ['graph-toolkit', '2.8.0-beta.1', 'beta', 10],
  ['graph-toolkit', '2.9.0-alpha.1', 'alpha', 3],
  ['graph-toolkit', '2.10.0-beta.1', 'beta', null],
  ['graph-cloud', '1.4.0', 'stable', 45],
  ['graph-connector', '1.2.0', 'stable', 90],
  ['graph-connector', '1.3.0-beta.1', 'beta', 7],
  ['graph-studio', '3.0.1', 'stable', 30],
];

/** The platforms each product ships for (SaaS products run at the vendor: nothing to download). */
const DEMO_PLATFORMS: Record<string, Platform[]> = {
  'graph-server': ['linux', 'windows', 'docker'],
  'graph-toolkit': ['npm', 'generic'],
  'graph-connector': ['linux', 'windows', 'osx'],
  'graph-studio': ['windows', 'osx', 'linux'],
};
const DEMO_EXTENSIONS: Record<Platform, string> = {
  linux: 'tar.gz',
  windows: 'zip',
  osx: 'dmg',
  docker: 'tar',
  npm: 'tgz',
  generic: 'zip',
};

/** A small file standing for a build: a few KiB, different for each version and platform. */
function demoBuild(productKey: string, semVer: string, platform: Platform): Buffer {
  const line = `${productKey} ${semVer} for ${platform}: a demonstration build of the portal's demo data.\n`;
  return Buffer.from(line.repeat(Math.ceil(4096 / line.length)));
}

/**
 * [customer, product, access level, start (days from today), end (days from today), data, entity
 * resolution]. A customer holds one licence per product. Every demo customer that is on the default
 * customer list holds one in each state (common/licence-status.ts): valid, warning (ends within 3
 * months), grace (ended less than 30 days ago), invalid; and each leaves one product unlicensed, so
 * a licence can be added in the demo. Initech Security's licences have all ended beyond their grace:
 * it shows the customer list's rule (hidden unless "all!" is added), which one valid licence would undo.
 */
const DEMO_LICENCES: [string, string, AccessLevel, number, number, object, boolean][] = [
  [DEMO_CUSTOMER_NAME, 'graph-server', 'stable', -400, 330, { fixedLicenses: 5 }, true],
  [
    DEMO_CUSTOMER_NAME,
    'graph-toolkit',
    'beta',
    -320,
    45,
    { fixedLicenses: 2, domains: ['acme-analytics.example'] },
    false,
  ],
  [DEMO_CUSTOMER_NAME, 'graph-connector', 'stable', -377, -12, { fixedLicenses: 2, sources: 4 }, false],
  [DEMO_CUSTOMER_NAME, 'graph-cloud', 'stable', -500, -120, { fixedLicenses: 1 }, false],
  ['Globex Logistics', 'graph-server', 'alpha', -200, 500, { fixedLicenses: 10 }, false],
  ['Globex Logistics', 'graph-studio', 'stable', -345, 20, { fixedLicenses: 4 }, false],
  ['Globex Logistics', 'graph-toolkit', 'stable', -375, -10, { fixedLicenses: 1 }, false],
  ['Globex Logistics', 'graph-connector', 'beta', -565, -200, { fixedLicenses: 1, sources: 2 }, false],
  ['Initech Security', 'graph-server', 'stable', -800, -90, { fixedLicenses: 3 }, false],
  ['Initech Security', 'graph-toolkit', 'stable', -900, -400, { fixedLicenses: 1 }, false],
  ['Northwind Labs', 'graph-cloud', 'stable', -5, 9, { fixedLicenses: 1, trial: true }, false],
  ['Northwind Labs', 'graph-studio', 'stable', -30, 335, { fixedLicenses: 1 }, false],
  ['Northwind Labs', 'graph-connector', 'stable', -370, -5, { fixedLicenses: 1, sources: 1 }, false],
  ['Northwind Labs', 'graph-toolkit', 'stable', -400, -60, { fixedLicenses: 1 }, false],
];

/**
 * [customer, product, version type, configuration]: each valid against its product's schema
 * (docs/customizations.md); the customer's licences of the product point to it. Globex's toolkit and
 * Initech's server have none, so a customization can be created in the demo too.
 */
export const DEMO_CUSTOMIZATIONS: [string, string, CustomizationVersionType, Record<string, unknown>][] = [
  [
    DEMO_CUSTOMER_NAME,
    'graph-server',
    'stable',
    {
      branding: {
        applicationName: 'Acme Investigations',
        logoUrl: 'https://static.acme-analytics.example/brand/logo.svg',
        primaryColor: '#0b5cad',
        secondaryColor: '#f4a300',
      },
      defaultLocale: 'en',
      features: { alerts: true, guestMode: false, dataEdition: true },
      plugins: [{ name: 'data-table', version: '2.1.0' }],
      limits: { maxUsers: 50, maxDataSources: 2 },
      authentication: { provider: 'oidc', allowLocalAccounts: false },
    },
  ],
  [
    DEMO_CUSTOMER_NAME,
    'graph-toolkit',
    'beta',
    {
      domains: ['acme-analytics.example', '*.acme-analytics.example'],
      features: { geo: true, layouts: ['force', 'hierarchical'], exports: ['png', 'svg'] },
      renderer: 'webgl',
      watermark: { enabled: false },
      defaultStyles: { node: { color: '#0b5cad', radius: 6 }, edge: { color: '#8899aa', shape: 'arrow' } },
    },
  ],
  [
    'Globex Logistics',
    'graph-server',
    'alpha',
    {
      branding: { applicationName: 'Globex Route Graph', primaryColor: '#2e7d32' },
      defaultLocale: 'fr',
      limits: { maxNodesPerVisualization: 20000 },
    },
  ],
];

const DAY_MS = 24 * 60 * 60 * 1000;
/** as the portal makes a download secret: 32 random bytes (docs/decisions/031) */
const random = () => crypto.randomBytes(32).toString('base64url');

/**
 * Loads the demo data when the database has no user at all; returns whether it did. With the server
 * secret, the demo invitations' keys are sealed so that an admin can copy their links (decision 027).
 */
export async function seedDemoData(
  db: DB,
  today = new Date(),
  secret?: string,
  storage?: ArtifactStorage,
): Promise<boolean> {
  const empty = async (q: DB | Transaction<Database>) => !(await anyUser(q));
  if (!(await empty(db))) return false;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  try {
    return await db.transaction().execute(async (trx) => {
      if (!(await empty(trx))) return false;
      await insertDemoData(trx, passwordHash, today, secret, storage);
      return true;
    });
  } catch (error) {
    // another app node seeded the same empty database at the same moment
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

async function insertDemoData(
  trx: Transaction<Database>,
  passwordHash: string,
  today: Date,
  secret?: string,
  storage?: ArtifactStorage,
) {
  const now = today.toISOString();
  const day = (offset: number) => new Date(today.getTime() + offset * DAY_MS).toISOString().slice(0, 10);
  const ago = (days: number) => new Date(today.getTime() - days * DAY_MS).toISOString();

  const userIds = new Map<string, number>();
  for (const account of DEMO_ACCOUNTS) {
    const user = await insertUser(trx, { ...account, preferredLocale: 'en', passwordHash });
    userIds.set(account.email, user.id);
  }

  const customerIds = new Map<string, number>();
  for (const { trial, ...customer } of CUSTOMERS) {
    const { id } = await insertCustomer(trx, { ...customer, crmId: null, createdAt: now });
    customerIds.set(customer.name, id);
    // a self-service customer's payment status is its subscription's
    if (trial) {
      await insertSubscription(trx, {
        customerId: id,
        provider: 'builtin',
        providerCustomerId: null,
        providerSubscriptionId: null,
        status: 'trial',
        currentPeriodEnd: new Date(today.getTime() + trial * DAY_MS).toISOString(),
        graceUntil: null,
        createdAt: now,
      });
    }
  }

  for (const account of DEMO_ACCOUNTS) {
    for (const name of account.customers) {
      await insertMembership(trx, {
        userId: userIds.get(account.email)!,
        customerId: customerIds.get(name)!,
        role: account.role as MemberRole,
        createdAt: now,
      });
    }
  }

  for (const product of PRODUCTS) await insertProduct(trx, { ...product, createdAt: now });
  const productName = new Map(PRODUCTS.map((p) => [p.key, p.name]));
  const versionIds = new Map<string, number>();
  const versionRows: [string, string, number, number | null][] = [];
  for (const [productKey, semVer, type, releasedDaysAgo] of VERSIONS) {
    const { id } = await insertVersion(trx, {
      productKey,
      title: `${productName.get(productKey)} ${semVer}`,
      type,
      semVer,
      description: releaseNotes(productName.get(productKey)!, semVer, type),
      releaseDate: releasedDaysAgo === null ? null : day(-releasedDaysAgo),
      published: releasedDaysAgo === null ? 0 : 1,
      createdAt: now,
    });
    versionIds.set(`${productKey}@${semVer}`, id);
    versionRows.push([productKey, semVer, id, releasedDaysAgo]);
  }

  // With a store, each version gets small files for its product's platforms, so the demo downloads.
  // Written before the rows commit: if another node seeds at the same moment, the storage sweep
  // removes the files this one wrote (server/modules/artifacts/sweep.ts).
  const artifactIds = new Map<string, number>();
  for (const [productKey, semVer, versionId] of storage ? versionRows : []) {
    for (const platform of DEMO_PLATFORMS[productKey] ?? []) {
      const bytes = demoBuild(productKey, semVer, platform);
      const storageKey = [productKey, semVer.replace(/[^A-Za-z0-9._-]/g, '_'), platform, crypto.randomUUID()].join('/');
      const stored = await storage!.put(storageKey, Readable.from([bytes]), { maxBytes: bytes.length });
      const { id } = await insertArtifact(trx, {
        versionId,
        platform,
        fileName: `${productKey}-${semVer}-${platform}.${DEMO_EXTENSIONS[platform]}`,
        storageKey,
        size: stored.size,
        sha256: stored.sha256,
        createdAt: now,
      });
      artifactIds.set(`${productKey}@${semVer}/${platform}`, id);
    }
  }

  const licenceIds = new Map<string, number>();
  for (const [customer, productKey, accessLevel, start, end, data, entityResolution] of DEMO_LICENCES) {
    const { id } = await insertLicence(trx, {
      customerId: customerIds.get(customer)!,
      productKey,
      hasEntityResolution: entityResolution ? 1 : 0,
      accessLevel,
      startDate: day(start),
      endDate: day(end),
      data: JSON.stringify(data),
      downloadSecret: random(),
      customizationId: null,
      createdAt: now,
    });
    licenceIds.set(`${customer}/${productKey}`, id);
  }

  for (const [customer, productKey, versionType, customConfig] of DEMO_CUSTOMIZATIONS) {
    const customerId = customerIds.get(customer)!;
    const { id } = await insertCustomization(trx, {
      customerId,
      productKey,
      versionType,
      customConfig: JSON.stringify(customConfig),
      enabled: 1,
      createdAt: now,
    });
    await linkLicences(trx, customerId, productKey, id);
  }

  await insertCloudInstance(trx, {
    customerId: customerIds.get('Northwind Labs')!,
    name: 'northwind-graph',
    tier: 'trial',
    status: 'provisioned',
    url: 'https://northwind-graph.cloud.example.com',
    deleteDataDelayInDays: 30,
    createdAt: now,
  });

  const acme = customerIds.get(DEMO_CUSTOMER_NAME)!;
  const owner = DEMO_ACCOUNTS.find((a) => a.role === 'businessOwner')!;
  const tech = DEMO_ACCOUNTS.find((a) => a.role === 'technicalContact')!;
  await insertAuditEntry(trx, {
    customerId: acme,
    by: auditUser({ id: userIds.get(tech.email)!, email: tech.email }),
    action: 'acceptInvitation',
    data: {
      invitationFrom: owner.email,
      inviterFullName: owner.fullName,
      memberEmail: tech.email,
      memberFullName: tech.fullName,
      role: 'technicalContact',
    },
    createdAt: ago(30),
  });
  await seedDemoDownloads(trx, { licenceIds, versions: versionRows, today });
  await recordDownload(trx, {
    licenceId: licenceIds.get(`${DEMO_CUSTOMER_NAME}/graph-server`)!,
    versionId: versionIds.get('graph-server@4.1.0')!,
    artifactId: artifactIds.get('graph-server@4.1.0/linux') ?? null,
    userId: userIds.get(tech.email)!,
    ip: null,
    createdAt: ago(2),
  });
  await insertAuditEntry(trx, {
    customerId: acme,
    by: auditUser({ id: userIds.get(tech.email)!, email: tech.email }),
    action: 'downloadArtifact',
    data: { productName: 'Graph Server', productVersion: '4.1.0', productPlatform: 'linux', anonymousDownload: false },
    createdAt: ago(2),
  });

  await insertDemoTeam(trx, { userIds, customerIds, owner: owner.email, passwordHash, today, secret });
  await seedRecentActions(trx, { userIds, customerIds, ago });
  await seedDemoNotifications(trx, { userIds, customerIds, licenceIds, ago, day });
  if (secret) await seedDemoWebhooks(trx, secret, ago);
}

/**
 * Recent actions (spec 2): a history for the demo customers, as the features write it, so every
 * demo account that sees the log finds entries of every kind, more than one page of them for Acme.
 */
async function seedRecentActions(
  trx: Transaction<Database>,
  {
    userIds,
    customerIds,
    ago,
  }: { userIds: Map<string, number>; customerIds: Map<string, number>; ago: (days: number) => string },
) {
  const account = (role: DemoAccount['role']) => DEMO_ACCOUNTS.find((a) => a.role === role)!;
  const [admin, executive, owner, tech, endUser] = (
    ['admin', 'accountExecutive', 'businessOwner', 'technicalContact', 'endUser'] as const
  ).map(account);
  const by = (who: DemoAccount | null) => ({
    by: who ? auditUser({ id: userIds.get(who.email)!, email: who.email }) : anonymousAuditActor,
  });
  const member = (who: DemoAccount) => ({ memberEmail: who.email, memberFullName: who.fullName });
  const download = (productName: string, productVersion: string, productPlatform: string, anonymous = false) => ({
    productName,
    productVersion,
    productPlatform,
    anonymousDownload: anonymous,
  });
  const entries: [string, DemoAccount | null, AuditAction, Record<string, unknown>, number][] = [
    [
      DEMO_CUSTOMER_NAME,
      admin,
      'createCustomer',
      { name: DEMO_CUSTOMER_NAME, customerKey: 'ACME7K2P9Q', selfService: false },
      400,
    ],
    [
      DEMO_CUSTOMER_NAME,
      admin,
      'setAccountExecutive',
      { accountExecutive: { fullName: executive.fullName, email: executive.email }, previous: [] },
      399,
    ],
    [
      DEMO_CUSTOMER_NAME,
      executive,
      'inviteMember',
      { invitedEmail: owner.email, invitedFullName: owner.fullName, role: 'businessOwner' },
      398,
    ],
    [
      DEMO_CUSTOMER_NAME,
      owner,
      'acceptInvitation',
      { invitationFrom: executive.email, inviterFullName: executive.fullName, ...member(owner), role: 'businessOwner' },
      397,
    ],
    [
      DEMO_CUSTOMER_NAME,
      owner,
      'inviteMember',
      { invitedEmail: tech.email, invitedFullName: tech.fullName, role: 'technicalContact' },
      31,
    ],
    [
      DEMO_CUSTOMER_NAME,
      owner,
      'inviteMember',
      { invitedEmail: endUser.email, invitedFullName: endUser.fullName, role: 'endUser' },
      26,
    ],
    [
      DEMO_CUSTOMER_NAME,
      endUser,
      'acceptInvitation',
      { invitationFrom: owner.email, inviterFullName: owner.fullName, ...member(endUser), role: 'endUser' },
      25,
    ],
    [
      DEMO_CUSTOMER_NAME,
      owner,
      'updateMemberStatus',
      { ...member(endUser), role: 'endUser', oldStatus: 'enabled', newStatus: 'disabled' },
      12,
    ],
    [
      DEMO_CUSTOMER_NAME,
      owner,
      'updateMemberStatus',
      { ...member(endUser), role: 'endUser', oldStatus: 'disabled', newStatus: 'enabled' },
      11,
    ],
    [
      DEMO_CUSTOMER_NAME,
      tech,
      'updateNotificationSettings',
      { ...member(tech), role: 'technicalContact', changes: { notifyNewVersion: { from: true, to: false } } },
      8,
    ],
    [DEMO_CUSTOMER_NAME, tech, 'downloadArtifact', download('Graph Toolkit', '2.7.0', 'npm'), 6],
    [DEMO_CUSTOMER_NAME, null, 'downloadArtifact', download('Graph Server', '4.1.0', 'docker', true), 4],
    [DEMO_CUSTOMER_NAME, admin, 'updateCustomer', { name: { from: 'Acme Analytic', to: DEMO_CUSTOMER_NAME } }, 3],
    [
      DEMO_CUSTOMER_NAME,
      owner,
      'inviteMember',
      { invitedEmail: 'new.analyst@acme-analytics.example', invitedFullName: 'Noah Fischer', role: 'endUser' },
      0,
    ],
    [
      'Globex Logistics',
      admin,
      'createCustomer',
      { name: 'Globex Logistics', customerKey: 'GBXT4M8T2W', selfService: false },
      300,
    ],
    [
      'Globex Logistics',
      admin,
      'setAccountExecutive',
      { accountExecutive: { fullName: executive.fullName, email: executive.email }, previous: [] },
      299,
    ],
    ['Globex Logistics', executive, 'downloadArtifact', download('Graph Server', '4.2.0-beta.2', 'linux'), 15],
    [
      'Globex Logistics',
      executive,
      'updateNotificationSettings',
      {
        memberEmail: executive.email,
        memberFullName: executive.fullName,
        role: 'accountExecutive',
        changes: { notifyEmailError: { from: true, to: false } },
      },
      9,
    ],
  ];
  for (const [customer, who, action, data, daysAgo] of entries) {
    await insertAuditEntry(trx, {
      customerId: customerIds.get(customer)!,
      ...by(who),
      action,
      data,
      createdAt: ago(daysAgo),
    });
  }
}

/** The extra members and the pending and expired invitations of the demo customers. */
async function insertDemoTeam(
  trx: Transaction<Database>,
  seed: {
    userIds: Map<string, number>;
    customerIds: Map<string, number>;
    owner: string;
    passwordHash: string;
    today: Date;
    secret?: string;
  },
) {
  const { userIds, customerIds, passwordHash, today, secret } = seed;
  const now = today.toISOString();
  for (const member of DEMO_TEAM) {
    const user = await insertUser(trx, {
      email: member.email,
      fullName: member.fullName,
      type: 'client',
      preferredLocale: 'en',
      passwordHash,
    });
    await insertMembership(trx, {
      userId: user.id,
      customerId: customerIds.get(member.customer)!,
      role: member.role,
      status: member.status,
      createdAt: now,
    });
  }
  const executive = DEMO_ACCOUNTS.find((a) => a.role === 'accountExecutive')!;
  for (const [customer, email, fullName, role, daysAgo] of DEMO_INVITATIONS) {
    const sent = today.getTime() - daysAgo * DAY_MS;
    const key = newInvitationKey();
    await insertInvitation(trx, {
      key,
      keySealed: secret ? sealInvitationKey(secret, key) : null,
      customerId: customerIds.get(customer)!,
      inviterId: userIds.get(customer === DEMO_CUSTOMER_NAME ? seed.owner : executive.email)!,
      invitedEmail: email,
      invitedFullName: fullName,
      role,
      locale: 'en',
      state: 'pending',
      selfService: 0,
      signupData: null,
      sentAt: new Date(sent).toISOString(),
      expiresAt: new Date(sent + INVITATION_VALIDITY_DAYS * DAY_MS).toISOString(),
      acceptedAt: null,
      acceptedUserId: null,
      createdAt: new Date(sent).toISOString(),
    });
  }
}
