// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Profile } from '../../../common/api/auth';
import type { Subscription } from '../../../common/api/billing';
import type { Customer } from '../../../common/api/customers';
import type { Instance } from '../../../common/api/instances';
import { PAYMENT_STATUSES, type PaymentStatus } from '../../../common/domain';
import { ROLES, type Role } from '../../../common/roles';
import { browser } from '../../api/billing';
import { toastHistory } from '../../components/notify';
import { customerCan, profileCan } from '../../test/abilities';
import { apiError, type FakeHandler, fakeApi } from '../../test/fake-api';
import { adminProfile, CurrentLocation, renderPage } from '../../test/render';
import { AccountPage } from './AccountPage';

/**
 * The customer page of a self-service customer (spec 4 "Payment status", spec 2 "Subscription block",
 * spec 8's payment messages): what each role sees in each status, and the ways to the provider.
 */

const customer = (role: Role, paymentStatus: PaymentStatus | null, selfService = true): Customer => ({
  id: 7,
  name: 'Acme Analytics',
  customerKey: 'ACME000001',
  selfService,
  paymentStatus,
  accountExecutive: { fullName: 'Bob Stone', email: 'bob@demo.portal' },
  billingEmail: null,
  yourRole: role,
  yourMembershipId: null,
  yourSettings: null,
  can: customerCan(role),
});

const subscriptionOf = (body: Customer, props: Partial<Subscription> = {}): Subscription => ({
  customerId: body.id,
  selfService: body.selfService,
  status: body.paymentStatus,
  provider: body.paymentStatus ? 'builtin' : null,
  currentPeriodEnd: body.paymentStatus === 'paid' ? '2031-03-09T10:00:00.000Z' : null,
  graceUntil: body.paymentStatus === 'grace' ? '2031-03-12T10:00:00.000Z' : null,
  graceDaysLeft: body.paymentStatus === 'grace' ? 3 : null,
  manageable: body.paymentStatus !== null && body.paymentStatus !== 'trial',
  suspended: false,
  ...props,
});

const archivedInstance: Instance = {
  id: 3,
  name: 'acme-analytics',
  tier: 'trial',
  status: 'archived',
  url: null,
  logsUrl: null,
  deleteDataDelayInDays: 30,
  deleteDataAt: '2031-04-01T00:00:00.000Z',
  can: { open: false, archive: false, restore: false, logs: false },
};

const profileOf = (role: Role): Profile =>
  ['admin', 'productManager', 'supportEngineer'].includes(role)
    ? { ...adminProfile, type: role as 'admin', yourRole: role, can: profileCan(role as 'admin', role) }
    : {
        ...adminProfile,
        type: role === 'accountExecutive' ? 'accountExecutive' : 'client',
        yourRole: role,
        can: profileCan(role === 'accountExecutive' ? 'accountExecutive' : 'client', role),
      };

function openPage(
  body: Customer,
  options: {
    subscription?: Partial<Subscription>;
    instances?: Instance[];
    path?: string;
    routes?: Record<string, FakeHandler>;
  } = {},
) {
  const empty = { data: [], offset: 0, total: 0, totalCapped: false };
  const subscription = subscriptionOf(body, options.subscription);
  const api = fakeApi({
    'GET /api/customers/7/page': () => ({
      status: 200,
      body: {
        customer: body,
        licences: body.can.viewLicences ? empty : null,
        members: body.can.viewTeam ? empty : null,
        invitations: body.can.viewTeam ? empty : null,
        recentActions: body.can.viewRecentActions ? empty : null,
        subscription: body.can.viewSubscription ? subscription : null,
        instances: { ...empty, data: options.instances ?? [], total: options.instances?.length ?? 0 },
      },
    }),
    'GET /api/customers/7': () => ({ status: 200, body }),
    'GET /api/customers/7/subscription': () => ({ status: 200, body: subscription }),
    ...options.routes,
  });
  const view = renderPage(
    <>
      <AccountPage />
      <CurrentLocation />
    </>,
    { path: options.path ?? '/en/accounts/7', route: '/:locale/accounts/:id', profile: profileOf(body.yourRole) },
  );
  return { ...view, api };
}

const shown = (testId: string) => screen.queryByTestId(testId) !== null;

let assign: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  toastHistory.clear();
});

describe('every payment status as every role', () => {
  const SCREEN: Record<string, string> = {
    checkout: 'payment-section',
    waiting: 'payment-waiting',
    issue: 'payment-issue',
  };
  const screenOf = (status: PaymentStatus | null) =>
    status === null || status === 'initiated'
      ? 'checkout'
      : status === 'processing'
        ? 'waiting'
        : ['grace', 'pastDue', 'unpaid', 'canceled'].includes(status)
          ? 'issue'
          : null;
  const PAYERS: Role[] = ['admin', 'supportEngineer', 'businessOwner'];

  for (const status of [null, ...PAYMENT_STATUSES]) {
    it(`${String(status)}`, async () => {
      const running = status !== null && ['trial', 'paid', 'grace', 'toBeCanceled'].includes(status);
      for (const role of ROLES) {
        const { unmount } = openPage(customer(role, status));
        await screen.findByRole('heading', { level: 1, name: 'Acme Analytics' });
        await screen.findByTestId('resources-section');
        const expected = PAYERS.includes(role) ? screenOf(status) : null;
        for (const [name, testId] of Object.entries(SCREEN)) {
          expect(shown(testId), `${String(status)} ${role} ${name}`).toBe(expected === name);
        }
        const main = running || role === 'admin' || role === 'supportEngineer';
        const viewsSubscription = ['admin', 'accountExecutive', 'supportEngineer', 'businessOwner'].includes(role);
        expect(shown('subscription-section'), `${String(status)} ${role} subscription`).toBe(main && viewsSubscription);
        expect(shown('subscription-notice'), `${String(status)} ${role} notice`).toBe(!main && expected === null);
        unmount();
      }
    }, 30_000);
  }
});

describe('the payment section', () => {
  it('sends the payer to the checkout', async () => {
    const { api } = openPage(customer('businessOwner', null), {
      routes: { 'POST /api/signup/payment': () => ({ status: 200, body: { url: 'https://checkout.example/c/1' } }) },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Pay by card' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.example/c/1'));
    expect(api.calls('POST /api/signup/payment')[0].body).toEqual({ customerId: 7 });
  });

  it('says the spec’s message when the checkout cannot open, in English and French', async () => {
    for (const [path, button, message] of [
      ['/en/accounts/7', 'Pay by card', 'Failed to redirect to payment. Please try again.'],
      ['/fr/accounts/7', 'Payer par carte', 'La redirection vers le paiement a échoué. Veuillez réessayer.'],
    ]) {
      const body = customer('businessOwner', 'initiated');
      const { unmount } = openPage(body, {
        path,
        routes: { 'POST /api/signup/payment': () => apiError(502, 'payment_provider_error', 'Down') },
      });
      fireEvent.click(await screen.findByRole('button', { name: button }));
      expect((await screen.findByTestId('payment-error')).textContent).toBe(message);
      expect(assign).not.toHaveBeenCalled();
      unmount();
    }
  });

  it('waits while the payment is confirmed, asking again until the status changes', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let status: PaymentStatus = 'processing';
    const { api } = openPage(customer('businessOwner', 'processing'), {
      routes: {
        'GET /api/customers/7': () => ({ status: 200, body: customer('businessOwner', status) }),
        'GET /api/customers/7/subscription': () => ({
          status: 200,
          body: subscriptionOf(customer('businessOwner', status)),
        }),
      },
    });
    expect((await screen.findByTestId('payment-waiting')).textContent).toContain('The payment is being confirmed');
    status = 'paid';
    await act(() => vi.advanceTimersByTimeAsync(5_500));
    await waitFor(() => expect(shown('payment-waiting')).toBe(false));
    expect(api.calls('GET /api/customers/7').length).toBeGreaterThan(0);
    // the main sections (a trial customer without licences: its subscription block)
    expect(shown('subscription-section')).toBe(true);
    // the subscription block reads the subscription again: paid, not the cached "being confirmed"
    await waitFor(() =>
      expect(screen.getByTestId('subscription-status').textContent).toBe('Active, renews on 09 Mar 2031'),
    );
  });
});

describe('the payment-issue section', () => {
  it('warns in grace that access may be lost and data deleted after the days left, and leads to a new card', async () => {
    openPage(customer('businessOwner', 'grace'), {
      routes: {
        'POST /api/stripe/update-payment-method-session': () => ({
          status: 200,
          body: { stripe: { url: 'https://billing.example/card' } },
        }),
      },
    });
    expect((await screen.findByTestId('payment-grace-warning')).textContent).toBe(
      'Update the payment method: access may be lost and data deleted after 3 days.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Update the payment method' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://billing.example/card'));
  });

  it('says the spec’s message when the payment-method page cannot open', async () => {
    openPage(customer('admin', 'pastDue'), {
      routes: { 'POST /api/stripe/update-payment-method-session': () => apiError(409, 'no_subscription', 'No') },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Update the payment method' }));
    expect((await screen.findByTestId('payment-error')).textContent).toBe(
      'Failed to redirect to payment method update. Please try again.',
    );
  });

  it('warns that the instance is disabled once the service is suspended, and offers a new subscription when cancelled', async () => {
    openPage(customer('businessOwner', 'canceled'), {
      subscription: { suspended: true },
      instances: [archivedInstance],
      routes: { 'POST /api/signup/payment': () => ({ status: 200, body: { url: 'https://checkout.example/2' } }) },
    });
    expect((await screen.findByTestId('payment-archived')).textContent).toBe(
      'The cloud instance acme-analytics is disabled until the payment is settled; its data will be deleted on 01 Apr 2031.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe again' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.example/2'));
  });

  it('speaks French', async () => {
    openPage(customer('businessOwner', 'grace'), { path: '/fr/accounts/7' });
    expect((await screen.findByTestId('payment-grace-warning')).textContent).toBe(
      'Mettez à jour le moyen de paiement : l’accès peut être perdu et les données supprimées dans 3 jours.',
    );
  });
});

describe('the subscription block', () => {
  it('says the status and the type, and opens the provider’s portal in a new tab', async () => {
    const tab = { opener: {}, location: { href: '' }, close: vi.fn() } as unknown as Window;
    const openTab = vi.spyOn(browser, 'openTab').mockReturnValue(tab);
    openPage(customer('accountExecutive', 'paid'), {
      routes: {
        'POST /api/stripe/billing-portal-session': () => ({ status: 200, body: { url: 'https://portal.example/p' } }),
      },
    });
    expect((await screen.findByTestId('subscription-status')).textContent).toBe('Active, renews on 09 Mar 2031');
    expect(screen.getByTestId('subscription-type').textContent).toBe('Self-Service');
    const manage = screen.getByTestId('subscription-manage');
    expect(manage.textContent).toBe('Manage subscription (opens in a new tab)');
    fireEvent.click(manage);
    await waitFor(() => expect(tab.location.href).toBe('https://portal.example/p'));
    expect(openTab).toHaveBeenCalledTimes(1);
    expect(tab.opener).toBeNull();
  });

  it('shows a danger notification when the portal fails or gives no address, and closes the tab', async () => {
    for (const answer of [apiError(502, 'payment_provider_error', 'Down'), { status: 200, body: { url: '' } }]) {
      const close = vi.fn();
      const tab = { opener: null, location: { href: '' }, close } as unknown as Window;
      vi.spyOn(browser, 'openTab').mockReturnValue(tab);
      const { unmount } = openPage(customer('businessOwner', 'toBeCanceled'), {
        routes: { 'POST /api/stripe/billing-portal-session': () => answer },
      });
      fireEvent.click(await screen.findByTestId('subscription-manage'));
      await waitFor(() => expect(toastHistory.getSnapshot()[0]).toMatchObject({ status: 'error' }));
      expect(toastHistory.getSnapshot()[0].message).toBe('The subscription portal could not be opened.');
      expect(close).toHaveBeenCalled();
      toastHistory.clear();
      unmount();
    }
  });

  it('says Sales for a sales-led customer, and offers the checkout to a payer in trial only', async () => {
    const { unmount } = openPage(customer('admin', null, false));
    expect((await screen.findByTestId('subscription-type')).textContent).toBe('Sales');
    expect(screen.getByTestId('subscription-status').textContent).toBe('Managed with your account executive');
    expect(shown('subscription-manage')).toBe(false);
    unmount();

    const trial = openPage(customer('businessOwner', 'trial'));
    expect((await screen.findByTestId('subscription-status')).textContent).toBe('Free trial');
    expect(shown('subscription-subscribe')).toBe(true);
    trial.unmount();

    openPage(customer('accountExecutive', 'trial'));
    await screen.findByTestId('subscription-status');
    expect(shown('subscription-subscribe')).toBe(false);
  });
});

describe('back from the checkout', () => {
  it('verifies the session once, reloads the customer and removes both parameters from the address', async () => {
    let status: PaymentStatus = 'initiated';
    const { api } = openPage(customer('businessOwner', 'initiated'), {
      path: '/en/accounts/7?payment=success&session_id=cs_test_42&tab=x',
      routes: {
        'GET /api/stripe/verify-session/cs_test_42': () => {
          status = 'paid';
          return { status: 200, body: { sessionId: 'cs_test_42', checkoutStatus: 'complete', paymentStatus: 'paid' } };
        },
        'GET /api/customers/7': () => ({ status: 200, body: customer('businessOwner', status) }),
      },
    });
    await waitFor(() => expect(screen.getByTestId('location').getAttribute('data-search')).toBe('?tab=x'));
    expect(api.calls('GET /api/stripe/verify-session/cs_test_42')).toHaveLength(1);
    await waitFor(() => expect(shown('payment-section')).toBe(false));
    expect(api.calls('GET /api/customers/7').length).toBeGreaterThan(0);
    expect(await screen.findByTestId('subscription-section')).toBeTruthy();
  });

  it('says when the session cannot be verified, and still cleans the address', async () => {
    openPage(customer('businessOwner', 'initiated'), {
      path: '/en/accounts/7?payment=success&session_id=cs_nope',
      routes: {
        'GET /api/stripe/verify-session/cs_nope': () => apiError(404, 'not_found', 'Checkout session not found'),
      },
    });
    await waitFor(() => expect(screen.getByTestId('location').getAttribute('data-search')).toBe(''));
    await waitFor(() => expect(toastHistory.getSnapshot()[0]).toMatchObject({ status: 'error' }));
    expect(toastHistory.getSnapshot()[0].message).toMatch(/^The payment could not be verified: /);
  });
});
