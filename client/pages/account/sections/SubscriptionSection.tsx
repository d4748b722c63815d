import { Alert, Button, Group, Text, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../i18n/use-translation';
import type { Customer } from '../../../../common/api/customers';
import { subscriptionQuery } from '../../../api/billing';
import { FIRST_SCREEN_FRESH_MS } from '../../../api/customer-page';
import { useLocale } from '../../../app/locale';
import { DelayedLoader } from '../../../components/DelayedLoader';
import { apiErrorText } from '../../../components/forms';
import { AccountSection } from '../AccountSection';
import { RedirectButton } from '../billing/RedirectButton';
import { FAILED } from './PaymentSection';
import { subscriptionPhrase } from '../billing/subscription-phrase';
import { useBillingPortal, useCheckout } from '../billing/use-billing-actions';

/**
 * The subscription block (spec 2; project managers, admins, account executives, support engineers):
 * the status phrase, Self-Service or Sales, and the provider's portal in a new tab once there is a
 * subscription there to manage. A customer in trial is offered the checkout here by those who pay:
 * the payment section of spec 4 is for a customer with no subscription yet.
 */
export function SubscriptionSection({ customer }: { customer: Customer }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const query = useQuery({ ...subscriptionQuery(customer.id), staleTime: FIRST_SCREEN_FRESH_MS });
  const portal = useBillingPortal(customer.id);
  const checkout = useCheckout(customer.id);
  const subscription = query.data;
  return (
    <AccountSection title={t('billing.subscription.title')} testId="subscription-section">
      {query.isError && (
        <Alert color="red" mt="xs">
          {t('billing.subscription.loadError', { error: apiErrorText(query.error, t) })}
        </Alert>
      )}
      {query.isPending && <DelayedLoader />}
      {subscription && (
        <>
          <dl style={{ margin: 0 }}>
            <Group gap="xs" mt="xs" wrap="wrap">
              <Text component="dt" fw={600}>
                {t('billing.subscription.status')}
              </Text>
              <Text component="dd" m={0} data-testid="subscription-status">
                {subscriptionPhrase(subscription, t, locale)}
              </Text>
            </Group>
            <Group gap="xs" mt={4} wrap="wrap">
              <Text component="dt" fw={600}>
                {t('billing.subscription.type')}
              </Text>
              <Text component="dd" m={0} data-testid="subscription-type">
                {t(subscription.selfService ? 'billing.subscription.selfService' : 'billing.subscription.sales')}
              </Text>
            </Group>
          </dl>
          {subscription.manageable && (
            <Button
              mt="sm"
              mr="sm"
              variant="default"
              onClick={portal.open}
              loading={portal.isPending}
              data-testid="subscription-manage"
            >
              {t('billing.subscription.manage')}
              <VisuallyHidden> {t('app.newTab')}</VisuallyHidden>
            </Button>
          )}
          {customer.can.pay && subscription.selfService && subscription.status === 'trial' && (
            <RedirectButton
              action={checkout}
              label="billing.subscription.subscribe"
              failure={FAILED}
              testId="subscription-subscribe"
            />
          )}
        </>
      )}
    </AccountSection>
  );
}
