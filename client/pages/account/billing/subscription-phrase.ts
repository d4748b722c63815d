import type { Subscription } from '../../../../common/api/billing';
import { formatDayMonthYear } from '../../../../common/format';
import type { Locale } from '../../../../common/roles';

type Translate = (key: string, values?: Record<string, unknown>) => string;

/** The statuses whose phrase names a date, and which: the trial's end, the next renewal, the end of grace, the end. */
const DATES = {
  trial: 'currentPeriodEnd',
  paid: 'currentPeriodEnd',
  grace: 'graceUntil',
  toBeCanceled: 'currentPeriodEnd',
} as const;

/**
 * The subscription block's status phrase (spec 2), one per payment status, with the date that matters
 * in it when there is one (`<status>On`).
 */
export function subscriptionPhrase(
  subscription: Pick<Subscription, 'selfService' | 'status' | 'currentPeriodEnd' | 'graceUntil'>,
  t: Translate,
  locale: Locale,
): string {
  const { status } = subscription;
  if (!subscription.selfService) return t('billing.subscription.phrases.sales');
  if (status === null) return t('billing.subscription.phrases.none');
  const field: (typeof DATES)[keyof typeof DATES] | undefined = DATES[status as keyof typeof DATES];
  const date = field ? subscription[field] : null;
  return date
    ? t(`billing.subscription.phrases.${status}On`, { date: formatDayMonthYear(date, locale) })
    : t(`billing.subscription.phrases.${status}`);
}
