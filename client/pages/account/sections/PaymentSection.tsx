import { Alert, Group, Loader, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from '../../../i18n/use-translation';
import type { Customer } from '../../../../common/api/customers';
import { formatDayMonthYear } from '../../../../common/format';
import { useLocale } from '../../../app/locale';
import { billingKeys, subscriptionQuery } from '../../../api/billing';
import { FIRST_SCREEN_FRESH_MS } from '../../../api/customer-page';
import { customerQuery } from '../../../api/customers';
import { instancesQuery } from '../../../api/instances';
import { AccountSection } from '../AccountSection';
import { RedirectButton } from '../billing/RedirectButton';
import { useCheckout, usePaymentMethodUpdate } from '../billing/use-billing-actions';
import type { PaymentScreen } from '../sections';
import './payment.css';

/** Spec 8: "Failed to redirect to payment. Please try again." */
export const FAILED = 'billing.payment.failed';

/** How often the waiting screen asks whether the payment was confirmed. */
const WAITING_POLL_MS = 5_000;

/**
 * The payment or payment-issue screen of a self-service customer (spec 4, `paymentScreen`), for the
 * roles that may pay: the pay button that leads to the provider's checkout; the waiting screen while
 * the payment is confirmed; the payment issue (grace, past due, unpaid, cancelled) with the way to a new
 * card, the grace warning and the warning that the instance is disabled (archived), with the day its
 * data will be deleted (the instance's `deleteDataAt`, in the licences' DD MMM YYYY).
 */
export function PaymentSection({ customer, screen }: { customer: Customer; screen: Exclude<PaymentScreen, null> }) {
  if (screen === 'waiting') return <WaitingScreen customer={customer} />;
  if (screen === 'issue') return <PaymentIssue customer={customer} />;
  return <CheckoutScreen customer={customer} />;
}

function CheckoutScreen({ customer }: { customer: Customer }) {
  const { t } = useTranslation();
  const checkout = useCheckout(customer.id);
  return (
    <AccountSection title={t('billing.payment.title')} testId="payment-section">
      <Text mt="xs">{t('billing.payment.intro')}</Text>
      <RedirectButton action={checkout} label="billing.payment.pay" failure={FAILED} testId="payment-pay" />
    </AccountSection>
  );
}

function WaitingScreen({ customer }: { customer: Customer }) {
  const { t } = useTranslation();
  // the customer is asked for again until the payment is confirmed: the page then changes by itself,
  // and the subscription block it shows reads the subscription as it now is, not as it was cached
  useQuery({ ...customerQuery(customer.id), refetchInterval: WAITING_POLL_MS });
  const queryClient = useQueryClient();
  useEffect(
    () => () => void queryClient.invalidateQueries({ queryKey: billingKeys.subscription(customer.id) }),
    [queryClient, customer.id],
  );
  return (
    <AccountSection title={t('billing.payment.waitingTitle')} testId="payment-waiting">
      <Group mt="xs" gap="sm" wrap="nowrap" role="status">
        <Loader size="sm" aria-hidden className="payment-waiting-loader" />
        <Text>{t('billing.payment.waiting')}</Text>
      </Group>
    </AccountSection>
  );
}

function PaymentIssue({ customer }: { customer: Customer }) {
  const { t } = useTranslation();
  const subscription = useQuery({ ...subscriptionQuery(customer.id), staleTime: FIRST_SCREEN_FRESH_MS }).data;
  // the first page of instances came with the page's answer (every role sees them)
  const instances = useQuery({ ...instancesQuery(customer.id, 0), staleTime: FIRST_SCREEN_FRESH_MS }).data;
  const archived = instances?.data.filter((instance) => instance.status === 'archived') ?? [];
  const locale = useLocale();
  const update = usePaymentMethodUpdate(customer.id);
  const checkout = useCheckout(customer.id);
  const status = customer.paymentStatus;
  return (
    <AccountSection title={t('billing.issue.title')} testId="payment-issue">
      <Alert color={status === 'grace' ? 'yellow' : 'red'} mt="xs" data-testid="payment-issue-status">
        <Text fw={600}>{t(`billing.issue.${status ?? 'canceled'}`)}</Text>
        {status === 'grace' && subscription?.graceDaysLeft != null && (
          <Text data-testid="payment-grace-warning">
            {t('billing.issue.graceWarning', { count: subscription.graceDaysLeft })}
          </Text>
        )}
      </Alert>
      {archived.map((instance) => (
        <Alert color="red" mt="sm" key={instance.id} data-testid="payment-archived">
          {instance.deleteDataAt
            ? t('billing.issue.archived', {
                name: instance.name,
                date: formatDayMonthYear(instance.deleteDataAt, locale),
              })
            : t('billing.issue.archivedNoDate', { name: instance.name })}
        </Alert>
      ))}
      {status === 'canceled' ? (
        <RedirectButton
          action={checkout}
          label="billing.issue.subscribeAgain"
          failure={FAILED}
          testId="payment-subscribe-again"
        />
      ) : (
        <RedirectButton
          action={update}
          label="billing.issue.updateMethod"
          failure="billing.issue.updateFailed"
          testId="payment-update-method"
        />
      )}
    </AccountSection>
  );
}
