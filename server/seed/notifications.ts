import type { Transaction } from 'kysely';
import type { NotificationStatus } from '../../common/domain';
import { NOTIFICATION_MESSAGES, type NotificationMessageKey } from '../../common/notifications';
import type { Database } from '../db/schema';
import { insertNotification } from '../modules/notifications/repo';

const ACME = 'Acme Analytics';

/**
 * [recipient's e-mail, kind, parameters (customer names stand for their ids), days ago, read]: what
 * the demo accounts find in their notification centre, told as the features write it and agreeing
 * with the rest of the demo (Acme's toolkit licence ends in 45 days, its connector ended 12 days ago,
 * Tomás joined 30 days ago and downloaded Graph Server 4.1.0 two days ago...).
 */
const DEMO_NOTIFICATIONS: [string, NotificationMessageKey, Record<string, string | number>, number, boolean][] = [
  [
    'owner@demo.portal',
    'notification.invitationAccepted',
    { customer: ACME, memberFullName: 'Tomás Herrera', memberEmail: 'tech@demo.portal' },
    30,
    true,
  ],
  [
    'owner@demo.portal',
    'notification.licenseExpired',
    {
      customer: ACME,
      licence: 'graph-connector',
      productKey: 'graph-connector',
      productName: 'Graph Connector',
      endDay: -12,
    },
    12,
    true,
  ],
  [
    'owner@demo.portal',
    'notification.emailError',
    { customer: ACME, email: 'marc.dubois@acme-analytics.example' },
    6,
    true,
  ],
  [
    'owner@demo.portal',
    'notification.newVersion',
    // told through the customer whose licence allows it (Acme's toolkit licence is beta)
    { customer: ACME, productKey: 'graph-toolkit', productName: 'Graph Toolkit', semVer: '2.8.0-beta.1' },
    10,
    false,
  ],
  [
    'owner@demo.portal',
    'notification.productDownload',
    { customer: ACME, productKey: 'graph-server', productName: 'Graph Server', semVer: '4.1.0', platform: 'linux' },
    2,
    false,
  ],
  [
    'owner@demo.portal',
    'notification.licenseExpiresSoon',
    { customer: ACME, licence: 'graph-toolkit', productKey: 'graph-toolkit', productName: 'Graph Toolkit', endDay: 45 },
    1,
    false,
  ],
  [
    'ae@demo.portal',
    'notification.licenseExpired',
    {
      customer: 'Globex Logistics',
      licence: 'graph-toolkit',
      productKey: 'graph-toolkit',
      productName: 'Graph Toolkit',
      endDay: -10,
    },
    10,
    true,
  ],
  [
    'ae@demo.portal',
    'notification.licenseExpiresSoon',
    {
      customer: 'Globex Logistics',
      licence: 'graph-studio',
      productKey: 'graph-studio',
      productName: 'Graph Studio',
      endDay: 20,
    },
    1,
    false,
  ],
  [
    'admin@demo.portal',
    'notification.licenseExpired',
    {
      customer: 'Initech Security',
      licence: 'graph-server',
      productKey: 'graph-server',
      productName: 'Graph Server',
      endDay: -90,
    },
    90,
    true,
  ],
  [
    'admin@demo.portal',
    'notification.newVersion',
    { customer: 'Globex Logistics', productKey: 'graph-server', productName: 'Graph Server', semVer: '4.3.0-alpha.1' },
    5,
    false,
  ],
  [
    'admin@demo.portal',
    'notification.licenseExpiresSoon',
    {
      customer: 'Globex Logistics',
      licence: 'graph-studio',
      productKey: 'graph-studio',
      productName: 'Graph Studio',
      endDay: 20,
    },
    1,
    false,
  ],
];

export async function seedDemoNotifications(
  trx: Transaction<Database>,
  context: {
    userIds: Map<string, number>;
    customerIds: Map<string, number>;
    licenceIds: Map<string, number>;
    ago: (days: number) => string;
    day: (offset: number) => string;
  },
) {
  for (const [email, messageKey, given, daysAgo, read] of DEMO_NOTIFICATIONS) {
    const { customer, licence, endDay, ...params } = given;
    if (typeof customer === 'string') {
      params.customerId = context.customerIds.get(customer)!;
      params.customerName = customer;
      if (typeof licence === 'string') params.licenceId = context.licenceIds.get(`${customer}/${licence}`)!;
    }
    if (typeof endDay === 'number') params.endDate = context.day(endDay);
    const status: NotificationStatus = read ? 'read' : 'unread';
    const named: readonly string[] = NOTIFICATION_MESSAGES[messageKey];
    await insertNotification(trx, {
      userId: context.userIds.get(email)!,
      messageKey,
      // the parameters the kind names, no more (a download's names no customer)
      params: Object.fromEntries(Object.entries(params).filter(([name]) => named.includes(name))),
      status,
      createdAt: context.ago(daysAgo),
    });
  }
}
