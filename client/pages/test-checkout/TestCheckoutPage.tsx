import { Alert, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import type { TestCheckoutSession } from '../../../common/api/billing';
import { TEST_CHECKOUT_ACTIONS, type TestCheckoutAction } from '../../../common/billing';
import { formatDayMonthYear } from '../../../common/format';
import type { Locale } from '../../../common/roles';
import { actOnTestCheckout, billingKeys, browser, testCheckoutQuery } from '../../api/billing';
import { ApiError } from '../../api/client';
import { useLocale } from '../../app/locale';
import { usePageTitle } from '../../app/title';
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

/** The actions a session's page offers, in order, with the one first the page is for. */
function actionsOf(session: TestCheckoutSession): TestCheckoutAction[] {
  if (session.kind === 'checkout') return session.status === 'open' ? [...TEST_CHECKOUT_ACTIONS.checkout] : [];
  if (session.kind === 'paymentMethodUpdate') return [...TEST_CHECKOUT_ACTIONS.paymentMethodUpdate];
  const running = session.subscription !== null && session.subscription.status !== 'canceled';
  const ending = session.subscription?.cancelAtPeriodEnd === true;
  return TEST_CHECKOUT_ACTIONS.portal.filter((action) => {
    if (action === 'back') return true;
    if (!running) return false;
    if (action === 'cancelAtPeriodEnd') return !ending;
    if (action === 'resume') return ending;
    return true;
  });
}

/**
 * A page of the built-in test checkout (docs/billing.md), where a tester plays the payment provider:
 * pays, has the card declined or goes back; later, on the billing portal, has a renewal paid or failed,
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
      return queryClient.invalidateQueries({ queryKey: billingKeys.testCheckout(sessionId) });
    },
    onError: (error) =>
      notify({ status: 'error', message: t('billing.testCheckout.failed', { error: apiErrorText(error, t) }) }),
  });
  usePageTitle(t('billing.testCheckout.title'));

  if (query.error instanceof ApiError && query.error.status === 404) return <NotFoundPage />;
  const session = query.data;
  const heading = session
    ? t(
        session.kind === 'checkout'
          ? 'billing.testCheckout.checkoutTitle'
          : session.kind === 'portal'
            ? 'billing.testCheckout.portalTitle'
            : 'billing.testCheckout.cardTitle',
        { customer: session.customerName },
      )
    : t('billing.testCheckout.title');

  return (
    <Stack gap="lg" py="md" data-testid="test-checkout-page">
      <PageHeader title={heading} description={t('billing.testCheckout.notice')} />
      <LoadError query={query} messageKey="billing.testCheckout.loadError" testId="test-checkout-error" />
      {query.isPending && <Skeleton height={120} />}
      {session && (
        <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="test-checkout-actions">
          <Title order={2} size="h3" id="test-checkout-actions">
            {t('billing.testCheckout.actions')}
          </Title>
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
                color={action === 'cancelNow' || action === 'renewalFailed' || action === 'decline' ? 'red' : undefined}
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

function SessionFacts({ session, locale }: { session: TestCheckoutSession; locale: Locale }) {
  const { t } = useTranslation();
  if (session.kind === 'checkout') {
    return (
      <>
        <Text mt="xs" data-testid="test-checkout-price">
          {t('billing.testCheckout.price', { amount: priceText(session.amountCents, session.currency, locale) })}
        </Text>
        {session.status !== 'open' && <Text mt="xs">{t('billing.testCheckout.closed')}</Text>}
      </>
    );
  }
  if (session.kind === 'paymentMethodUpdate') return <Text mt="xs">{t('billing.testCheckout.cardIntro')}</Text>;
  const { subscription } = session;
  if (!subscription) return <Text mt="xs">{t('billing.testCheckout.noSubscription')}</Text>;
  return (
    <Stack gap={4} mt="xs">
      <Text data-testid="test-checkout-status">
        {t('billing.testCheckout.providerStatus', {
          status: t(`billing.testCheckout.statuses.${subscription.status}`),
        })}
      </Text>
      <Text>
        {t('billing.testCheckout.periodEnd', { date: formatDayMonthYear(subscription.currentPeriodEnd, locale) })}
      </Text>
      {subscription.cancelAtPeriodEnd && <Text>{t('billing.testCheckout.endsAtPeriodEnd')}</Text>}
    </Stack>
  );
}
