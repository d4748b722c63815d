import type { Subscription } from '../../../../common/api/billing';
import { formatDayMonthYear } from '../../../../common/format';
import type { Locale } from '../../../../common/roles';

type Translate = (key: string, values?: Record<string, unknown>) => string;

/**
 * The subscription block's status phrase (spec 2), one per payment status, with the date that matters
 * in it when there is one: the next renewal, the end of grace, the end of a cancelled subscription.
 */
export function subscriptionPhrase(
  subscription: Pick<Subscription, 'selfService' | 'status' | 'currentPeriodEnd' | 'graceUntil'>,
  t: Translate,
  locale: Locale,
): string {
  const { status } = subscription;
  if (!subscription.selfService) return t('billing.subscription.phrases.sales');
  const date = (value: string | null) => (value ? formatDayMonthYear(value, locale) : null);
  const periodEnd = date(subscription.currentPeriodEnd);
  switch (status) {
    case null:
      return t('billing.subscription.phrases.none');
    case 'paid':
      return periodEnd
        ? t('billing.subscription.phrases.paidUntil', { date: periodEnd })
        : t('billing.subscription.phrases.paid');
    case 'grace': {
      const until = date(subscription.graceUntil);
      return until
        ? t('billing.subscription.phrases.graceUntil', { date: until })
        : t('billing.subscription.phrases.grace');
    }
    case 'toBeCanceled':
      return periodEnd
        ? t('billing.subscription.phrases.toBeCanceledOn', { date: periodEnd })
        : t('billing.subscription.phrases.toBeCanceled');
    default:
      return t(`billing.subscription.phrases.${status}`);
  }
}
