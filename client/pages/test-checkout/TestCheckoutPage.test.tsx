// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TestCheckoutSession } from '../../../common/api/test-checkout';
import { browser } from '../../api/billing';
import { toastHistory } from '../../components/notify';
import { apiError, fakeApi } from '../../test/fake-api';
import { renderPage } from '../../test/render';
import { priceText, TestCheckoutPage } from './TestCheckoutPage';

const checkout: TestCheckoutSession = {
  id: 'cs_test_1',
  kind: 'checkout',
  status: 'open',
  customerId: 7,
  customerName: 'Acme Analytics',
  amountCents: 4900,
  currency: 'eur',
  subscription: null,
};
const portal: TestCheckoutSession = {
  ...checkout,
  id: 'bps_test_1',
  kind: 'portal',
  subscription: { status: 'active', cancelAtPeriodEnd: false, currentPeriodEnd: '2031-03-09T10:00:00Z' },
};

function open(session: TestCheckoutSession, routes: Parameters<typeof fakeApi>[0] = {}, locale = 'en') {
  const api = fakeApi({ [`GET /api/test-checkout/${session.id}`]: () => ({ status: 200, body: session }), ...routes });
  renderPage(<TestCheckoutPage />, {
    path: `/${locale}/test-checkout/${session.id}`,
    route: '/:locale/test-checkout/:sessionId',
  });
  return api;
}

let assign: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
  toastHistory.clear();
});

describe('TestCheckoutPage', () => {
  it('shows a checkout: whom it is for, the price, that nothing is charged; paying leads where the server says', async () => {
    const api = open(checkout, {
      'POST /api/test-checkout/cs_test_1': () => ({
        status: 200,
        body: { url: 'http://portal.test/en/accounts/7?payment=success&session_id=cs_test_1', declined: false },
      }),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Pay for Acme Analytics' })).toBeTruthy();
    expect(screen.getByTestId('test-checkout-price').textContent).toBe('€49.00 per month');
    expect(screen.getByText(/no card is charged/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Pay' }));
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith('http://portal.test/en/accounts/7?payment=success&session_id=cs_test_1'),
    );
    expect(api.calls('POST /api/test-checkout/cs_test_1')[0].body).toEqual({ action: 'pay' });
  });

  it('says when the card is declined and stays', async () => {
    open(checkout, {
      'POST /api/test-checkout/cs_test_1': () => ({ status: 200, body: { url: null, declined: true } }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Decline the card' }));
    expect((await screen.findByTestId('test-checkout-declined')).textContent).toBe(
      'The card was declined. Try again, or go back.',
    );
    expect(assign).not.toHaveBeenCalled();
  });

  it('offers the billing portal’s actions that fit the subscription, and tells when one is done', async () => {
    const api = open(portal, {
      'POST /api/test-checkout/bps_test_1': () => ({ status: 200, body: { url: null, declined: false } }),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Subscription of Acme Analytics' })).toBeTruthy();
    expect(screen.getByTestId('test-checkout-status').textContent).toBe('Status at the provider: active');
    const buttons = screen.getAllByRole('button').map((b) => b.textContent);
    expect(buttons).toEqual([
      'Next renewal paid',
      'Next renewal fails',
      'Cancel at the end of the period',
      'Cancel now',
      'Back to the portal',
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Next renewal fails' }));
    await waitFor(() => expect(toastHistory.getSnapshot()[0]).toMatchObject({ status: 'success' }));
    expect(api.calls('GET /api/test-checkout/bps_test_1').length).toBeGreaterThan(1);
  });

  it('offers a slow payment, then how it ends once it is processing', async () => {
    open(checkout);
    await screen.findByRole('heading', { level: 1, name: 'Pay for Acme Analytics' });
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual([
      'Pay',
      'Pay by bank debit (the payment stays processing)',
      'Decline the card',
      'Go back without paying',
    ]);
    cleanup();
    const processing: TestCheckoutSession = {
      ...checkout,
      status: 'complete',
      subscription: { status: 'incomplete', cancelAtPeriodEnd: false, currentPeriodEnd: '2031-03-09T10:00:00Z' },
    };
    const api = open(processing, {
      'POST /api/test-checkout/cs_test_1': () => ({ status: 200, body: { url: null, declined: false } }),
    });
    expect((await screen.findByTestId('test-checkout-price')).textContent).toBe(
      'The payment is processing: say how it ends.',
    );
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual([
      'The payment goes through',
      'The payment fails',
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'The payment goes through' }));
    await waitFor(() =>
      expect(api.calls('POST /api/test-checkout/cs_test_1')[0]?.body).toEqual({ action: 'paymentClears' }),
    );
  });

  it('offers every retry failing and the end of grace once a renewal failed', async () => {
    open({ ...portal, subscription: { ...portal.subscription!, status: 'past_due' } });
    await screen.findByTestId('test-checkout-status');
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual([
      'Next renewal paid',
      'Next renewal fails',
      'Every retry fails (unpaid)',
      'End the grace period now (past due)',
      'Cancel at the end of the period',
      'Cancel now',
      'Back to the portal',
    ]);
  });

  it('speaks French', async () => {
    open(checkout, {}, 'fr');
    expect(await screen.findByRole('heading', { level: 1, name: 'Payer pour Acme Analytics' })).toBeTruthy();
    expect(screen.getByTestId('test-checkout-price').textContent).toBe(`${priceText(4900, 'eur', 'fr')} par mois`);
    expect(screen.getByRole('button', { name: 'Refuser la carte' })).toBeTruthy();
  });

  it('shows the not-found page for a session the server does not show', async () => {
    fakeApi({ 'GET /api/test-checkout/cs_gone': () => apiError(404, 'not_found', 'Not found') });
    renderPage(<TestCheckoutPage />, { path: '/en/test-checkout/cs_gone', route: '/:locale/test-checkout/:sessionId' });
    expect(await screen.findByText('The page you are looking for does not exist.')).toBeTruthy();
  });
});
