/**
 * The kinds of notification (spec section 3, "Notification", and the eight flags of "Notification
 * settings"). A notification is stored as one of these message keys and its parameters, and read in
 * the reader's language: the texts are client/i18n's `notification.*`, each naming some of the
 * parameters below. Whoever writes a notification gives the parameters of its kind; the reader
 * renders only those (server/modules/notifications, client/app/notification-text.ts).
 */
export const NOTIFICATION_MESSAGES = {
  'notification.licenseExpiresSoon': [
    'customerId',
    'customerName',
    'licenceId',
    'productKey',
    'productName',
    'endDate',
  ],
  'notification.licenseExpired': ['customerId', 'customerName', 'licenceId', 'productKey', 'productName', 'endDate'],
  'notification.productDownload': ['customerId', 'productKey', 'productName', 'semVer', 'platform'],
  'notification.firstProductDownload': ['customerId', 'productKey', 'productName', 'semVer', 'platform'],
  'notification.invitationAccepted': ['customerId', 'customerName', 'memberFullName', 'memberEmail'],
  'notification.newVersion': ['customerId', 'productKey', 'productName', 'semVer'],
  'notification.newProductLicense': ['customerId', 'customerName', 'licenceId', 'productKey', 'productName'],
  'notification.emailError': ['customerId', 'customerName', 'email'],
} as const satisfies Record<string, readonly string[]>;

export type NotificationMessageKey = keyof typeof NOTIFICATION_MESSAGES;
export const NOTIFICATION_MESSAGE_KEYS = Object.keys(NOTIFICATION_MESSAGES) as NotificationMessageKey[];

/** The parameters of a kind, by name. */
export type NotificationParams<Key extends NotificationMessageKey> = Record<
  (typeof NOTIFICATION_MESSAGES)[Key][number],
  string | number
>;

/** Parameters holding a calendar day (YYYY-MM-DD), shown as licence dates are (spec section 9: DD MMM YYYY). */
export const NOTIFICATION_DAY_PARAMS: readonly string[] = ['endDate'];

export const isNotificationMessageKey = (key: string): key is NotificationMessageKey =>
  Object.hasOwn(NOTIFICATION_MESSAGES, key);

/** A parameter's value as stored: a text or a number; anything else is left out when read. */
export type NotificationParamValue = string | number;

/** Notifications are marked read at most this many at a time by id (or all at once). */
export const MAX_NOTIFICATIONS_MARKED = 100;

/**
 * The unread notifications are counted up to this many: the bell's count costs the same whatever a
 * user's history (decision 013). `unreadCapped` says there are more.
 */
export const UNREAD_COUNT_CAP = 1000;

/** The two notices of a licence's end, each sent once per licence and end date. */
export const EXPIRY_NOTICE_KINDS = ['expiresSoon', 'expired'] as const;
export type ExpiryNoticeKind = (typeof EXPIRY_NOTICE_KINDS)[number];

/** How long before its end date a licence is said to expire soon (spec section 9: 3 months). */
export const EXPIRES_SOON_MONTHS = 3;
