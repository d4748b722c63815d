// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Profile } from '../../../common/api/auth';
import type { CustomerSummary } from '../../../common/api/customers';
import { customerCan, profileCan } from '../../test/abilities';
import { type FakeAnswer, fakeApi } from '../../test/fake-api';
import { adminProfile, CurrentLocation, renderPage } from '../../test/render';
import { CustomersPage } from './CustomersPage';

const customer = (id: number, name: string, customerKey: string): CustomerSummary => ({
  id,
  name,
  customerKey,
  selfService: false,
  yourRole: 'admin',
});
const everyone = [
  customer(1, 'Acme Corporation', 'ACME000001'),
  customer(2, 'Globex', 'GLBX000002'),
  customer(3, 'Initech', 'INIT000003'),
];

/** GET /api/customers as the server answers it: a filter on name or key, a page of the matches. */
function customersAnswer(query: URLSearchParams, customers: CustomerSummary[] = everyone): FakeAnswer {
  const filter = (query.get('filter') ?? '').toLowerCase();
  const matches = customers.filter((c) => `${c.name} ${c.customerKey}`.toLowerCase().includes(filter));
  const offset = Number(query.get('pageOffset') ?? 0);
  const length = Number(query.get('pageLength') ?? 10);
  return {
    status: 200,
    body: { data: matches.slice(offset, offset + length), offset, total: matches.length, totalCapped: false },
  };
}

const supportProfile: Profile = {
  ...adminProfile,
  type: 'supportEngineer',
  yourRole: 'supportEngineer',
  can: profileCan('supportEngineer', 'supportEngineer'),
};

const renderCustomers = (path = '/en/customers', profile: Profile = adminProfile) =>
  renderPage(<CustomersPage />, { path, route: '/:locale/customers', profile });

const cardNames = () => screen.queryAllByTestId('customer-card').map((card) => card.querySelector('p')?.textContent);

/** Types like a person: 100 ms between keystrokes, on the test's clock. */
async function type(input: HTMLElement, texts: string[]) {
  for (const text of texts) {
    fireEvent.change(input, { target: { value: text } });
    await act(() => vi.advanceTimersByTimeAsync(100));
  }
}

/** Lets the page's timers run as if `ms` had passed (the search's 300 ms pause among them). */
const pass = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

// The clock is the test's (advancing with real time too, for waitFor): a pause is exactly as long as it says.
beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
afterEach(() => vi.useRealTimers());

describe('CustomersPage', () => {
  it('focuses the search and shows cards with name and key linking to the account', async () => {
    const api = fakeApi({ 'GET /api/customers': ({ query }) => customersAnswer(query) });
    renderCustomers();
    expect(await screen.findByText('Acme Corporation')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Search customers'));
    expect(document.title).toBe('Customers · Graph Portal');
    const cards = screen.getAllByTestId('customer-card');
    expect(cards.map((c) => c.getAttribute('href'))).toEqual(['/en/accounts/1', '/en/accounts/2', '/en/accounts/3']);
    expect(within(cards[1]).getByText('GLBX000002')).toBeTruthy();
    expect(screen.getByTestId('customers-count').textContent).toBe('3 customers');
    expect(api.calls('GET /api/customers')[0].query.get('pageLength')).toBe('10');
  });

  it('sends one request once typing pauses for 300 ms, not one per keystroke', async () => {
    const api = fakeApi({ 'GET /api/customers': ({ query }) => customersAnswer(query) });
    renderCustomers();
    await screen.findByText('Acme Corporation');
    await type(screen.getByLabelText('Search customers'), ['g', 'gl', 'glo']);
    expect(api.calls('GET /api/customers')).toHaveLength(1);
    await pass(300);
    await waitFor(() => expect(cardNames()).toEqual(['Globex']));
    expect(api.calls('GET /api/customers').map((r) => r.query.get('filter'))).toEqual([null, 'glo']);
  });

  it('never lets an older search answering late replace the newer one', async () => {
    let releaseSlow: () => void = () => {};
    const slow = new Promise<void>((resolve) => {
      releaseSlow = resolve;
    });
    const api = fakeApi({
      'GET /api/customers': async ({ query }) => {
        // The search for "acme" answers only after the one for "initech" has been shown.
        if (query.get('filter') === 'acme') await slow;
        return customersAnswer(query);
      },
    });
    renderCustomers();
    await screen.findByText('Globex');
    const search = screen.getByLabelText('Search customers');
    await type(search, ['acme']);
    await pass(300);
    await waitFor(() => expect(api.calls('GET /api/customers').map((r) => r.query.get('filter'))).toContain('acme'));
    await type(search, ['initech']);
    await pass(300);
    await waitFor(() => expect(cardNames()).toEqual(['Initech']), { timeout: 5000 });

    releaseSlow();
    // The late answer has come back (every fetch settled) and the page has had all the time it could
    // use to show it: the screen still shows the newer one.
    await waitFor(() =>
      expect(vi.mocked(fetch).mock.settledResults.map((result) => result.type)).not.toContain('incomplete'),
    );
    await pass(1000);
    expect(cardNames()).toEqual(['Initech']);
    expect(screen.queryByText('Acme Corporation')).toBeNull();
  });

  it('says when nothing matches, with the all! hint, in English and in French', async () => {
    fakeApi({ 'GET /api/customers': ({ query }) => customersAnswer(query) });
    const { unmount } = renderCustomers();
    await screen.findByText('Globex');
    await type(screen.getByLabelText('Search customers'), ['zzz']);
    await pass(300);
    const empty = await screen.findByTestId('customers-empty', {}, { timeout: 5000 });
    expect(empty.getAttribute('role')).toBe('status');
    expect(empty.textContent).toContain('No customer matches “zzz”.');
    expect(empty.textContent).toContain('add “all!” to the search to include them');
    unmount();

    renderCustomers('/fr/customers');
    await type(await screen.findByLabelText('Rechercher des clients'), ['zzz']);
    await pass(300);
    const vide = await screen.findByTestId('customers-empty', {}, { timeout: 5000 });
    expect(vide.textContent).toContain('Aucun client ne correspond à « zzz ».');
    expect(vide.textContent).toContain('ajoutez « all! » à la recherche');
  });

  it('pages by 10 and starts a new search from the first page', async () => {
    const many = Array.from({ length: 23 }, (_, i) =>
      customer(i + 1, `Customer ${String(i + 1).padStart(2, '0')}`, `KEY${i}`.padEnd(10, '0')),
    );
    const api = fakeApi({ 'GET /api/customers': ({ query }) => customersAnswer(query, many) });
    renderCustomers();
    await screen.findByText('Customer 01');
    expect(screen.getByText('Page 1 of 3')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /next/i }));
    await screen.findByText('Customer 11');
    expect(api.calls('GET /api/customers').at(-1)?.query.get('pageOffset')).toBe('10');
    await type(screen.getByLabelText('Search customers'), ['customer 2']);
    await pass(300);
    await waitFor(() => expect(cardNames()).toEqual(['Customer 20', 'Customer 21', 'Customer 22', 'Customer 23']));
    expect(api.calls('GET /api/customers').at(-1)?.query.get('pageOffset')).toBe('0');
  });

  it('offers Add to admins only, and the modal creates a customer and reloads the list', async () => {
    const created: CustomerSummary[] = [];
    const api = fakeApi({
      'GET /api/customers': ({ query }) => customersAnswer(query, [...everyone, ...created]),
      'POST /api/customers': ({ body }) => {
        const { name } = body as { name: string };
        created.push(customer(9, name, 'GENKEY2345'));
        return {
          status: 201,
          body: {
            id: 9,
            name,
            customerKey: 'GENKEY2345',
            selfService: false,
            paymentStatus: null,
            accountExecutive: null,
            billingEmail: null,
            yourRole: 'admin',
            yourMembershipId: null,
            yourSettings: null,
            can: customerCan('admin'),
          },
        };
      },
    });
    renderCustomers();
    await screen.findByText('Globex');
    fireEvent.click(screen.getByTestId('customers-add'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Umbrella' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('Umbrella');
    expect(api.calls('POST /api/customers')[0].body).toEqual({ name: 'Umbrella', customerKey: '', selfService: false });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('shows a load failure with the reason and a retry that reloads the list', async () => {
    let down = true;
    fakeApi({ 'GET /api/customers': ({ query }) => (down ? 'network-error' : customersAnswer(query)) });
    renderCustomers();
    const error = await screen.findByTestId('customers-error');
    expect(error.getAttribute('role')).toBe('alert');
    expect(error.textContent).toContain('The customers could not be loaded: The portal cannot be reached.');
    down = false;
    fireEvent.click(within(error).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Globex')).toBeTruthy();
    expect(screen.queryByTestId('customers-error')).toBeNull();
  });

  it('shows no Add button to support engineers', async () => {
    fakeApi({ 'GET /api/customers': ({ query }) => customersAnswer(query) });
    renderCustomers('/en/customers', supportProfile);
    await screen.findByText('Globex');
    expect(screen.queryByTestId('customers-add')).toBeNull();
  });
});

describe('CustomersPage in the address', () => {
  const many = Array.from({ length: 25 }, (_, n) =>
    customer(n + 1, `Client ${String(n + 1).padStart(2, '0')}`, `CLNT0000${String(n + 1).padStart(2, '0')}`),
  );

  it('opens the filter and page a shared link names', async () => {
    const api = fakeApi({ 'GET /api/customers': ({ query }) => customersAnswer(query, many) });
    renderCustomers('/en/customers?q=client&page=2');
    await waitFor(() => expect(cardNames()[0]).toBe('Client 11'));
    const call = api.calls('GET /api/customers')[0].query;
    expect([call.get('filter'), call.get('pageOffset')]).toEqual(['client', '10']);
    expect((screen.getByLabelText('Search customers') as HTMLInputElement).value).toBe('client');
  });

  it('writes the search and the page into the address, a new search from the first page', async () => {
    fakeApi({ 'GET /api/customers': ({ query }) => customersAnswer(query, many) });
    renderPage(
      <>
        <CustomersPage />
        <CurrentLocation />
      </>,
      { path: '/en/customers', route: '/:locale/customers' },
    );
    const search = () => screen.getByTestId('location').getAttribute('data-search');
    await screen.findByText('Client 01');
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(cardNames()[0]).toBe('Client 11'));
    expect(search()).toBe('?page=2');
    fireEvent.change(screen.getByLabelText('Search customers'), { target: { value: 'client 2 ' } });
    await waitFor(() => expect(search()).toBe('?q=client+2'));
    await waitFor(() => expect(cardNames()[0]).toBe('Client 20'));
  });
});
