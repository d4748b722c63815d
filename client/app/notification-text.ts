import type { Translate } from '../i18n/translate';
import type { NotificationItem } from '../../common/api/notifications';
import { PLATFORMS } from '../../common/domain';
import { formatDayMonthYear } from '../../common/format';
import { isNotificationMessageKey, NOTIFICATION_DAY_PARAMS, NOTIFICATION_MESSAGES } from '../../common/notifications';
import type { Locale } from '../../common/roles';

/** Stands for a parameter the notification lacks (one written before its kind named it). */
const MISSING = '—';

const isPlatform = (value: string): value is (typeof PLATFORMS)[number] =>
  (PLATFORMS as readonly string[]).includes(value);

/**
 * A notification's text in the reader's language: its kind's text (client/i18n `notification.*`)
 * with its parameters. Only the parameters its kind names reach the text, so a stored parameter can
 * never act as one of the translator's options (lng, count, defaultValue...); a day is shown as licence
 * dates are (DD MMM YYYY) and a platform by its name. A kind this version does not know gets a text
 * that says so rather than its key.
 */
export function notificationText(
  t: Translate,
  locale: Locale,
  item: Pick<NotificationItem, 'messageKey' | 'params'>,
): string {
  if (!isNotificationMessageKey(item.messageKey)) return t('notificationCentre.unknown');
  const values: Record<string, string> = {};
  for (const name of NOTIFICATION_MESSAGES[item.messageKey]) {
    const value = Object.hasOwn(item.params, name) ? String(item.params[name]) : '';
    if (value === '') values[name] = MISSING;
    else if (NOTIFICATION_DAY_PARAMS.includes(name)) values[name] = formatDayMonthYear(value, locale) || value;
    else if (name === 'platform' && isPlatform(value)) values[name] = t(`downloads.platforms.${value}`);
    else values[name] = value;
  }
  // Nothing is interpolated inside the values: "{{x}}" or "$t(x)" in one shows as it is.
  return t(item.messageKey, values);
}
