// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Profile } from '../../../common/api/auth';
import type { CustomerPage } from '../../../common/api/customer-page';
import type { Customer } from '../../../common/api/customers';
import { STORAGE_KEYS } from '../../../common/constants';
import type { Role } from '../../../common/roles';
import { storage } from '../../app/storage';
import { toastHistory } from '../../components/notify';
import { customerCan, profileCan } from '../../test/abilities';
import { apiError, type FakeAnswer, fakeApi } from '../../test/fake-api';
import { adminProfile, renderPage } from '../../test/render';
import { AccountPage } from './AccountPage';

const customer = (yourRole: Role, props: Partial<Customer> = {}): Customer => ({
  id: 7,
  name: 'Acme Analytics',
  customerKey: 'ACME000001',
  selfService: false,
  paymentStatus: null,
  accountExecutive: { fullName: 'Bob Stone', email: 'bob@demo.portal' },
  billingEmail: yourRole === 'businessOwner' ? 'billing@acme.example' : null,
  yourRole,
  yourMembershipId: null,
  yourSettings: null,
  can: customerCan(yourRole),
  ...props,
});

const clientProfile: Profile = {
  ...adminProfile,
  email: 'owner@acme.example',
  type: 'client',
  yourRole: 'businessOwner',
  can: profileCan('client', 'businessOwner'),
};

/**
 * Lets every timer the page set run as if `ms` had passed (on the test's clock, set by
 * vi.useFakeTimers before the page is rendered): a request a timer would make has been made.
 */
const pass = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

/** The page's one answer for a customer: each list its abilities open, empty. */
function pageOf(body: Customer): CustomerPage {
  const empty = { data: [], offset: 0, total: 0, totalCapped: false };
  const team = body.can.viewTeam;
  return {
    customer: body,
    licences: body.can.viewLicences ? empty : null,
    members: team ? empty : null,
    invitations: team ? empty : null,
    recentActions: body.can.viewRecentActions ? empty : null,
    subscription: body.can.viewSubscription
      ? {
          customerId: body.id,
          selfService: body.selfService,
          status: body.paymentStatus,
          provider: body.paymentStatus ? 'builtin' : null,
          currentPeriodEnd: null,
          graceUntil: null,
          graceDaysLeft: null,
          manageable: false,
          suspended: false,
        }
      : null,
    instances: empty,
  };
}

/** The customer's answer as the page's: a customer body becomes the page of that customer. */
async function asPage(answer: FakeAnswer | Promise<FakeAnswer>): Promise<FakeAnswer> {
  const resolved = await answer;
  return resolved !== 'network-error' && resolved.status === 200
    ? { status: 200, body: pageOf(resolved.body as Customer) }
    : resolved;
}

function openAccount(
  answer: FakeAnswer | (() => Promise<FakeAnswer>),
  path = '/en/accounts/7',
  profile = adminProfile,
  sync: () => FakeAnswer = () =>
    apiError(409, 'crm_not_configured', 'The connection to SalesForce is not configured on this portal.'),
) {
  const customerAnswer = typeof answer === 'function' ? answer : () => answer;
  const api = fakeApi({
    'GET /api/customers/7/page': () => asPage(customerAnswer()),
    'GET /api/customers/7': customerAnswer,
    'POST /api/customers/7/sync': sync,
  });
  const view = renderPage(<AccountPage />, { path, route: '/:locale/accounts/:id', profile });
  return { ...view, api };
}

afterEach(() => {
  vi.useRealTimers();
  storage.remove(STORAGE_KEYS.customer);
  toastHistory.clear();
});

describe('AccountPage: loading and not found', () => {
  it('shows nothing for the first 200 ms, then the loader, then the customer', async () => {
    let release: (answer: FakeAnswer) => void = () => {};
    const start = performance.now();
    openAccount(() => new Promise<FakeAnswer>((resolve) => (release = resolve)));
    expect(screen.queryByTestId('loader')).toBeNull();
    // A lower bound only: a busy machine may show it later, never sooner.
    expect(await screen.findByTestId('loader', {}, { timeout: 5000 })).toBeTruthy();
    expect(performance.now() - start).toBeGreaterThanOrEqual(200);
    release({ status: 200, body: customer('admin') });
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme Analytics' }, { timeout: 5000 })).toBeTruthy();
    expect(screen.queryByTestId('loader')).toBeNull();
    expect(document.title).toBe('Acme Analytics · Graph Portal');
  }, 15_000);

  it('shows the not-found view for a customer the server does not show, and does not remember it', async () => {
    storage.set(STORAGE_KEYS.customer, '3');
    openAccount(apiError(404, 'not_found', 'Not found'), '/en/accounts/7', clientProfile);
    expect(await screen.findByRole('heading', { level: 1, name: 'Customer not found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to your accounts' }).getAttribute('href')).toBe('/en/select-account');
    expect(storage.get(STORAGE_KEYS.customer)).toBe('3');
  });

  it('shows the not-found view for an address that cannot name a customer, without asking the server', async () => {
    for (const id of ['abc', '0', '99999999999']) {
      const { api, unmount } = openAccount({ status: 200, body: customer('admin') }, `/en/accounts/${id}`);
      expect(await screen.findByTestId('account-not-found'), id).toBeTruthy();
      expect(screen.getByRole('link', { name: 'Back to home' }).getAttribute('href')).toBe('/en');
      expect(api.requests, id).toEqual([]);
      unmount();
    }
  });

  it('shows the error page with a retry when the server fails', async () => {
    let answer: FakeAnswer = apiError(500, 'internal_error', 'Boom');
    openAccount(() => Promise.resolve(answer));
    expect(await screen.findByTestId('error-page')).toBeTruthy();
    answer = { status: 200, body: customer('admin') };
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme Analytics' })).toBeTruthy();
  });

  it("keeps every section when the page's one answer fails: each list is asked for on its own, and the one failing shows its error and a retry that works", async () => {
    const empty = { status: 200, body: { data: [], offset: 0, total: 0, totalCapped: false } } as const;
    const body = customer('businessOwner');
    let licences: FakeAnswer = apiError(503, 'unavailable', 'Licences are unavailable');
    const api = fakeApi({
      'GET /api/customers/7/page': () => apiError(503, 'unavailable', 'The page is unavailable'),
      'GET /api/customers/7': () => ({ status: 200, body }),
      'GET /api/customers/7/licenses': () => licences,
      'GET /api/customers/7/members': () => empty,
      'GET /api/invitations': () => empty,
      'GET /api/customers/7/logs': () => empty,
      'GET /api/customers/7/instances': () => empty,
    });
    renderPage(<AccountPage />, { path: '/en/accounts/7', route: '/:locale/accounts/:id', profile: clientProfile });
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme Analytics' })).toBeTruthy();
    const failed = await screen.findByTestId('licences-load-error');
    expect(failed.textContent).toContain('Licences are unavailable');
    expect(screen.queryByTestId('error-page')).toBeNull();
    // the other sections are there, with what their own calls answered
    expect(await screen.findByTestId('recent-actions-section')).toBeTruthy();
    expect(screen.getByTestId('members-section')).toBeTruthy();
    expect(screen.queryByTestId('recent-actions-error')).toBeNull();
    expect(api.calls('GET /api/customers/7/logs').length).toBeGreaterThan(0);

    licences = { status: 200, body: { data: [], offset: 0, total: 0, totalCapped: false } };
    fireEvent.click(within(failed).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.queryByTestId('licences-load-error')).toBeNull());
    expect(api.calls('GET /api/customers/7/licenses').length).toBeGreaterThanOrEqual(2);
  });

  it('remembers the customer once it is shown (the next sign-in leads back to it)', async () => {
    openAccount({ status: 200, body: customer('technicalContact') }, '/en/accounts/7', clientProfile);
    await screen.findByRole('heading', { level: 1, name: 'Acme Analytics' });
    expect(storage.get(STORAGE_KEYS.customer)).toBe('7');
  });
});

describe('AccountPage: header per role', () => {
  it('gives staff the telemetry dashboard in a new tab and the sync icon', async () => {
    for (const role of ['admin', 'accountExecutive', 'productManager', 'supportEngineer'] as const) {
      const { unmount } = openAccount({ status: 200, body: customer(role) });
      const telemetry = await screen.findByTestId('account-telemetry');
      expect(telemetry.getAttribute('href'), role).toBe('https://telemetry.example.com/customers/ACME000001');
      expect(telemetry.getAttribute('target')).toBe('_blank');
      expect(telemetry.getAttribute('rel')).toContain('noopener');
      expect(telemetry.getAttribute('aria-label')).toBe('Telemetry dashboard (opens in a new tab)');
      expect(screen.getByRole('button', { name: 'Sync with SalesForce' })).toBeTruthy();
      unmount();
    }
  });

  it('gives admins alone the pencil, which opens the customer modal on this customer', async () => {
    openAccount({ status: 200, body: customer('admin') });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit the customer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit customer' });
    expect((within(dialog).getByLabelText(/Name/) as HTMLInputElement).value).toBe('Acme Analytics');
    for (const role of ['accountExecutive', 'productManager', 'supportEngineer', 'businessOwner'] as const) {
      cleanup();
      openAccount({ status: 200, body: customer(role) });
      await screen.findByRole('heading', { level: 1, name: 'Acme Analytics' });
      expect(screen.queryByTestId('account-edit'), role).toBeNull();
    }
  }, 20_000);

  it('shows no sync icon where no CRM is set up (can.syncWithCrm false), the telemetry link still', async () => {
    const body = customer('admin');
    openAccount({ status: 200, body: { ...body, can: { ...body.can, syncWithCrm: false } } });
    await screen.findByTestId('account-telemetry');
    expect(screen.queryByTestId('account-sync')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Sync with SalesForce' })).toBeNull();
  });

  it('gives the customer’s own contacts neither telemetry nor sync', async () => {
    for (const role of ['businessOwner', 'technicalContact', 'endUser'] as const) {
      const { unmount } = openAccount({ status: 200, body: customer(role) }, '/en/accounts/7', clientProfile);
      await screen.findByRole('heading', { level: 1, name: 'Acme Analytics' });
      expect(screen.queryByTestId('account-telemetry'), role).toBeNull();
      expect(screen.queryByTestId('account-sync'), role).toBeNull();
      unmount();
    }
  });

  it('says why the sync failed, in the spec’s words and the reader’s language', async () => {
    const { api } = openAccount({ status: 200, body: customer('accountExecutive') }, '/fr/accounts/7');
    fireEvent.click(await screen.findByRole('button', { name: 'Synchroniser avec SalesForce' }));
    await waitFor(() => expect(toastHistory.getSnapshot()[0]).toBeTruthy());
    expect(toastHistory.getSnapshot()[0]).toMatchObject({
      status: 'error',
      message:
        "Le client n'a pas pu être synchronisé avec SalesForce : La connexion à SalesForce n'est pas configurée sur ce portail.",
    });
    expect(api.calls('POST /api/customers/7/sync')).toHaveLength(1);
  });

  it('shows the CRM’s own refusal in the spec’s failure message', async () => {
    openAccount({ status: 200, body: customer('supportEngineer') }, '/en/accounts/7', adminProfile, () =>
      apiError(502, 'crm_error', "INVALID_FIELD: No such column 'Portal_Role__c' on sobject of type Contact"),
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Sync with SalesForce' }));
    await waitFor(() => expect(toastHistory.getSnapshot()[0]).toBeTruthy());
    expect(toastHistory.getSnapshot()[0]).toMatchObject({
      status: 'error',
      message:
        "The customer could not be synced with SalesForce: INVALID_FIELD: No such column 'Portal_Role__c' on sobject of type Contact",
    });
  });

  it('says the customer was synced when the CRM took it', async () => {
    const { api } = openAccount(
      { status: 200, body: customer('productManager') },
      '/en/accounts/7',
      adminProfile,
      () => ({
        status: 200,
        body: { ok: true },
      }),
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Sync with SalesForce' }));
    await waitFor(() => expect(toastHistory.getSnapshot()[0]).toBeTruthy());
    expect(toastHistory.getSnapshot()[0]).toMatchObject({
      status: 'success',
      message: 'The customer was synced with SalesForce',
    });
    expect(api.calls('POST /api/customers/7/sync')).toHaveLength(1);
  });
});

describe('AccountPage: sections and what they load per role', () => {
  it('shows members and recent actions to the roles that see the team', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    for (const role of ['admin', 'accountExecutive', 'supportEngineer', 'businessOwner'] as const) {
      const { api, unmount } = openAccount({ status: 200, body: customer(role) });
      expect(await screen.findByRole('heading', { level: 2, name: 'Members' }), role).toBeTruthy();
      expect(screen.getByRole('heading', { level: 2, name: 'Recent actions' })).toBeTruthy();
      // every list of the first screen comes with the page's one answer, at once
      expect(screen.getByTestId('licences-empty')).toBeTruthy();
      expect(screen.getByTestId('members-empty')).toBeTruthy();
      expect(screen.getByTestId('invitations-empty')).toBeTruthy();
      expect(screen.getByTestId('recent-actions-empty')).toBeTruthy();
      await pass(1000);
      expect(
        api.requests.map((r) => r.path),
        role,
      ).toEqual(['/api/customers/7/page']);
      unmount();
    }
  });

  it('never renders, so never loads, members, invitations or logs for a technical contact or an end user', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    for (const role of ['technicalContact', 'endUser', 'productManager'] as const) {
      const { api, unmount } = openAccount({ status: 200, body: customer(role) }, '/en/accounts/7', clientProfile);
      expect(await screen.findByRole('heading', { level: 2, name: 'Resources and support' }), role).toBeTruthy();
      expect(screen.queryByTestId('members-section'), role).toBeNull();
      expect(screen.queryByTestId('recent-actions-section'), role).toBeNull();
      await pass(1000);
      const asked = api.requests.map((r) => r.path);
      // the page's one answer and nothing else: the sections read what it brought
      expect(asked, role).toEqual(['/api/customers/7/page']);
      unmount();
    }
  });

  it('tells a contact who cannot pay why a self-service account shows nothing yet', async () => {
    const unpaid = customer('technicalContact', { selfService: true, paymentStatus: 'unpaid' });
    openAccount({ status: 200, body: unpaid }, '/en/accounts/7', clientProfile);
    expect(await screen.findByTestId('subscription-notice')).toBeTruthy();
  });

  it('tells an end user what the page offers them and whom to ask for more, in English and French', async () => {
    openAccount({ status: 200, body: customer('endUser') }, '/en/accounts/7', clientProfile);
    const notice = await screen.findByTestId('nothing-to-manage');
    expect(notice.textContent).toContain('Your role in Acme Analytics: End user.');
    expect(within(notice).getByTestId('nothing-to-manage-settings').getAttribute('href')).toBe('/en/settings');
    expect(within(notice).getByRole('link', { name: 'Bob Stone' }).getAttribute('href')).toBe('mailto:bob@demo.portal');
    cleanup();
    openAccount({ status: 200, body: customer('endUser') }, '/fr/accounts/7', clientProfile);
    expect((await screen.findByTestId('nothing-to-manage')).textContent).toContain(
      'Votre rôle chez Acme Analytics : Utilisateur final.',
    );
  });

  it('says nothing of the kind to a role that has lists to see', async () => {
    openAccount({ status: 200, body: customer('technicalContact') }, '/en/accounts/7', clientProfile);
    await screen.findByTestId('resources-section');
    expect(screen.queryByTestId('nothing-to-manage')).toBeNull();
  });

  it('opens the support centre and the academy in a new tab', async () => {
    openAccount({ status: 200, body: customer('endUser') }, '/en/accounts/7', clientProfile);
    for (const [testId, href] of [
      ['resources-support', 'https://support.example.com'],
      ['resources-academy', 'https://academy.example.com'],
    ]) {
      const link = await screen.findByTestId(testId);
      expect(link.getAttribute('href')).toBe(href);
      expect(link.getAttribute('target')).toBe('_blank');
      expect(link.getAttribute('rel')).toContain('noopener');
    }
  });
});

describe('AccountPage: footer per role', () => {
  it('gives everyone the account executive’s contact, and the project manager the billing contact', async () => {
    openAccount({ status: 200, body: customer('businessOwner') }, '/en/accounts/7', clientProfile);
    const executive = await screen.findByTestId('footer-account-executive');
    expect(executive.textContent).toBe('Your account executive: Bob Stone (bob@demo.portal)');
    expect(screen.getByRole('link', { name: 'Bob Stone' }).getAttribute('href')).toBe('mailto:bob@demo.portal');
    expect(screen.getByTestId('footer-billing').textContent).toBe('Billing contact: billing@acme.example');
  });

  it('shows no billing contact to any other role, even if one were sent', async () => {
    for (const role of ['technicalContact', 'endUser', 'admin', 'accountExecutive'] as const) {
      const body = customer(role, { billingEmail: 'billing@acme.example' });
      const { unmount } = openAccount({ status: 200, body }, '/en/accounts/7', clientProfile);
      expect(await screen.findByTestId('footer-account-executive'), role).toBeTruthy();
      expect(screen.queryByTestId('footer-billing'), role).toBeNull();
      unmount();
    }
  });

  it('shows no footer when the customer has no account executive and the reader no billing contact', async () => {
    openAccount({ status: 200, body: customer('technicalContact', { accountExecutive: null }) });
    await screen.findByRole('heading', { level: 1, name: 'Acme Analytics' });
    // the footer belongs to the sections mounted after the first screen: once they are there, it is not
    await waitFor(() => expect(screen.queryByTestId('account-page-below-loading')).toBeNull());
    expect(screen.queryByTestId('account-footer')).toBeNull();
  });
});
