// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Profile } from '../../../common/api/auth';
import type { CustomerSummary } from '../../../common/api/customers';
import type { Role } from '../../../common/roles';
import { profileCan } from '../../test/abilities';
import { type FakeAnswer, fakeApi } from '../../test/fake-api';
import { adminProfile, renderPage } from '../../test/render';
import { SelectAccountPage } from './SelectAccountPage';

const account = (id: number, name: string, yourRole: Role): CustomerSummary => ({
  id,
  name,
  customerKey: `KEY${String(id).padStart(7, '0')}`,
  selfService: false,
  yourRole,
});

/** GET /api/customers as the server answers it: a name filter, then one page of the matches. */
function listAnswer(query: URLSearchParams, accounts: CustomerSummary[]): FakeAnswer {
  const filter = (query.get('filter') ?? '').toLowerCase();
  const matches = accounts.filter((a) => a.name.toLowerCase().includes(filter));
  const offset = Number(query.get('pageOffset') ?? 0);
  const length = Number(query.get('pageLength') ?? 10);
  return {
    status: 200,
    body: { data: matches.slice(offset, offset + length), offset, total: matches.length, totalCapped: false },
  };
}

const executiveProfile: Profile = {
  ...adminProfile,
  type: 'accountExecutive',
  yourRole: 'accountExecutive',
  can: profileCan('accountExecutive', 'accountExecutive'),
};
const clientProfile: Profile = {
  ...adminProfile,
  type: 'client',
  yourRole: 'businessOwner',
  can: profileCan('client', 'businessOwner'),
};

function openPicker(accounts: CustomerSummary[], profile: Profile, path = '/en/select-account') {
  const api = fakeApi({ 'GET /api/customers': ({ query }) => listAnswer(query, accounts) });
  renderPage(<SelectAccountPage />, { path, route: '/:locale/select-account', profile });
  return api;
}

// Named by what they show (WCAG 2.5.3): the account's name first, then the role held in it.
const entries = () => screen.getAllByTestId('account-entry').map((e) => e.querySelector('p')?.textContent);

describe('SelectAccountPage', () => {
  it('goes straight to the one account a user has', async () => {
    openPicker([account(7, 'Acme Analytics', 'technicalContact')], clientProfile, '/fr/select-account');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/fr/accounts/7'));
  });

  it('lists a contact’s accounts with initials, name and role, without a filter', async () => {
    const api = openPicker(
      [account(1, 'Acme Analytics', 'businessOwner'), account(2, 'Globex', 'technicalContact')],
      clientProfile,
    );
    await screen.findAllByTestId('account-entry');
    expect(entries()).toEqual(['Acme Analytics', 'Globex']);
    const first = screen.getAllByTestId('account-entry')[0];
    expect(first.textContent).toBe('AAAcme AnalyticsProject manager');
    expect(first.getAttribute('href')).toBe('/en/accounts/1');
    expect(screen.queryByTestId('account-filter')).toBeNull();
    expect(api.calls('GET /api/customers')[0].query.get('pageLength')).toBe('10');
  });

  it('gives an account executive the name filter, asking the server once typing pauses', async () => {
    const accounts = [
      account(1, 'Acme Analytics', 'accountExecutive'),
      account(2, 'Globex Logistics', 'accountExecutive'),
      account(3, 'Initech Security', 'accountExecutive'),
    ];
    const api = openPicker(accounts, executiveProfile);
    const filter = await screen.findByLabelText('Filter by name');
    // keystrokes in a row: one request for the text once typing pauses, none per keystroke
    for (const text of ['g', 'gl', 'glo']) fireEvent.change(filter, { target: { value: text } });
    await waitFor(() => expect(entries()).toEqual(['Globex Logistics']), { timeout: 5000 });
    // one match under a filter is not "one account": the list stays, nothing navigates
    expect(screen.queryByTestId('location')).toBeNull();
    expect(api.calls('GET /api/customers').map((r) => r.query.get('filter'))).toEqual([null, 'glo']);

    fireEvent.change(filter, { target: { value: 'zzz' } });
    expect((await screen.findByTestId('accounts-empty', {}, { timeout: 5000 })).textContent).toBe(
      'No account matches “zzz”.',
    );
    // the filter stays while it is set, even though no entry is left to show the role
    expect(screen.getByTestId('account-filter')).toBeTruthy();
  });

  it('pages through the accounts ten at a time, past the first 50 the profile carries', async () => {
    const accounts = Array.from({ length: 55 }, (_, i) =>
      account(i + 1, `Customer ${String(i + 1).padStart(2, '0')}`, 'accountExecutive'),
    );
    const api = openPicker(accounts, executiveProfile);
    await screen.findAllByTestId('account-entry');
    expect(entries()).toHaveLength(10);
    expect(screen.getByText('Page 1 of 6')).toBeTruthy();
    for (let page = 2; page <= 6; page += 1) {
      fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
      await screen.findByText(`Page ${page} of 6`, {}, { timeout: 5000 });
    }
    await waitFor(() => expect(entries()).toEqual(accounts.slice(50).map((a) => a.name)));
    expect(api.calls('GET /api/customers').map((r) => r.query.get('pageOffset'))).toEqual([
      '0',
      '10',
      '20',
      '30',
      '40',
      '50',
    ]);
  }, 20_000);

  it('says why the accounts could not be loaded, and tries again', async () => {
    let down = true;
    const accounts = [account(1, 'Acme Analytics', 'businessOwner'), account(2, 'Globex', 'businessOwner')];
    fakeApi({ 'GET /api/customers': ({ query }) => (down ? 'network-error' : listAnswer(query, accounts)) });
    renderPage(<SelectAccountPage />, {
      path: '/en/select-account',
      route: '/:locale/select-account',
      profile: clientProfile,
    });
    const error = await screen.findByTestId('accounts-error');
    expect(error.getAttribute('role')).toBe('alert');
    expect(error.textContent).toContain('Your accounts could not be loaded: The portal cannot be reached.');
    down = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(entries()).toEqual(['Acme Analytics', 'Globex']));
    expect(screen.queryByTestId('accounts-error')).toBeNull();
  });

  it('says so when the user has no account yet', async () => {
    openPicker([], clientProfile);
    expect((await screen.findByTestId('accounts-empty')).textContent).toBe(
      'You do not belong to any customer account yet.',
    );
  });
});
