import { Alert, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { useParams } from 'react-router';
import type { TestCheckoutSession } from '../../../common/api/test-checkout';
import { TEST_CHECKOUT_ACTIONS, type TestCheckoutAction } from '../../../common/billing';
import type { Locale } from '../../../common/roles';
import { browser } from '../../api/billing';
import { actOnTestCheckout, testCheckoutKeys, testCheckoutQuery } from '../../api/test-checkout';
import { ApiError } from '../../api/client';
import { useLocale } from '../../app/locale';
import { usePageTitle } from '../../app/title';
import { DelayedLoader } from '../../components/DelayedLoader';
import { apiErrorText } from '../../components/forms';
import { LoadError } from '../../components/LoadError';
import { notify } from '../../components/notify';
import { PageHeader } from '../../components/PageHeader';
import { NotFoundPage } from '../error/NotFoundPage';

/** The price as a person reads it in their language (4900 eur: €49.00 or 49,00 €). */
export function priceText(amountCents: number, currency: string, locale: Locale): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency: currency.toUpperCase() }).format(
    amountCents / 100,
  );
}

/** The outcomes that leave the customer owing or without the service, in red. */
const DANGEROUS: readonly TestCheckoutAction[] = [
  'cancelNow',
  'renewalFailed',
  'decline',
  'paymentFails',
  'retriesFail',
  'graceOver',
];

/** The actions a session's page offers, in order, with the one first the page is for. */
function actionsOf(session: TestCheckoutSession): TestCheckoutAction[] {
  if (session.kind === 'checkout') {
    const slow: TestCheckoutAction[] = ['paymentClears', 'paymentFails'];
    if (session.status === 'open') return TEST_CHECKOUT_ACTIONS.checkout.filter((action) => !slow.includes(action));
    // a slow payment still processing: the tester says how it ends
    return session.subscription?.status === 'incomplete' ? slow : [];
  }
  if (session.kind === 'paymentMethodUpdate') return [...TEST_CHECKOUT_ACTIONS.paymentMethodUpdate];
  const running = session.subscription !== null && session.subscription.status !== 'canceled';
  const ending = session.subscription?.cancelAtPeriodEnd === true;
  const pastDue = session.subscription?.status === 'past_due';
  return TEST_CHECKOUT_ACTIONS.portal.filter((action) => {
    if (action === 'back') return true;
    if (!running) return false;
    if (action === 'retriesFail' || action === 'graceOver') return pastDue;
    if (action === 'cancelAtPeriodEnd') return !ending;
    if (action === 'resume') return ending;
    return true;
  });
}

/**
 * A page of the built-in test checkout (docs/billing.md), where a tester plays the payment provider:
 * pays, pays slowly (then says whether it went through), has the card declined or goes back; later,
 * on the billing portal, has a renewal paid or failed, then every retry failing or the grace ending,
 * cancels or resumes; gives a new card. What they do reaches the portal as the provider's signed
 * events would.
 */
export function TestCheckoutPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const sessionId = useParams().sessionId ?? '';
  const queryClient = useQueryClient();
  const query = useQuery(testCheckoutQuery(sessionId));
  const [declined, setDeclined] = useState(false);
  const act = useMutation({
    mutationFn: (action: TestCheckoutAction) => actOnTestCheckout(sessionId, action),
    onSuccess: (outcome) => {
      setDeclined(outcome.declined);
      if (outcome.url) return browser.assign(outcome.url);
      if (!outcome.declined) notify({ status: 'success', message: t('billing.testCheckout.done') });
      return queryClient.invalidateQueries({ queryKey: testCheckoutKeys.session(sessionId) });
    },
    onError: (error) =>
      notify({ status: 'error', message: t('billing.testCheckout.failed', { error: apiErrorText(error, t) }) }),
  });
  usePageTitle(t('billing.testCheckout.title'));

  if (query.error instanceof ApiError && query.error.status === 404) return <NotFoundPage />;
  const session = query.data;
  const heading = session
    ? t(`billing.testCheckout.${session.kind}Title`, { customer: session.customerName })
    : t('billing.testCheckout.title');

  return (
    <Stack gap="lg" py="md" data-testid="test-checkout-page">
      <PageHeader title={heading} description={t('billing.testCheckout.notice')} />
      <LoadError query={query} messageKey="billing.testCheckout.loadError" testId="test-checkout-error" />
      {query.isPending && <DelayedLoader />}
      {session && (
        <Paper withBorder p="lg" radius="md">
          <SessionFacts session={session} locale={locale} />
          {declined && (
            <Alert color="red" mt="sm" role="alert" data-testid="test-checkout-declined">
              {t('billing.testCheckout.declined')}
            </Alert>
          )}
          <Group mt="md" gap="sm">
            {actionsOf(session).map((action, index) => (
              <Button
                key={action}
                variant={index === 0 ? 'filled' : 'default'}
                color={DANGEROUS.includes(action) ? 'red' : undefined}
                onClick={() => act.mutate(action)}
                loading={act.isPending && act.variables === action}
                disabled={act.isPending && act.variables !== action}
                data-testid={`test-checkout-${action}`}
              >
                {t(`billing.testCheckout.${action}`)}
              </Button>
            ))}
          </Group>
        </Paper>
      )}
    </Stack>
  );
}

/** What the tester needs to know: the price of a checkout; a subscription's status in Stripe's words. */
function SessionFacts({ session, locale }: { session: TestCheckoutSession; locale: Locale }) {
  const { t } = useTranslation();
  if (session.kind === 'checkout') {
    return (
      <Text data-testid="test-checkout-price">
        {session.status === 'open'
          ? t('billing.testCheckout.price', { amount: priceText(session.amountCents, session.currency, locale) })
          : session.subscription?.status === 'incomplete'
            ? t('billing.testCheckout.processing')
            : t('billing.testCheckout.closed')}
      </Text>
    );
  }
  if (session.kind === 'paymentMethodUpdate') return null;
  const { subscription } = session;
  const status = subscription
    ? [subscription.status, subscription.cancelAtPeriodEnd ? 'cancel_at_period_end' : null].filter(Boolean).join(', ')
    : '—';
  return <Text data-testid="test-checkout-status">{t('billing.testCheckout.providerStatus', { status })}</Text>;
}
