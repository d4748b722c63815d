// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Customer } from '../../../common/api/customers';
import type { Role } from '../../../common/roles';
import { toastHistory } from '../../components/notify';
import { customerCan } from '../../test/abilities';
import { fakeApi } from '../../test/fake-api';
import { renderPage } from '../../test/render';
import { AccountExecutiveControl } from './AccountExecutiveControl';

const acme = (yourRole: Role, accountExecutive: Customer['accountExecutive'] = null): Customer => ({
  id: 4,
  name: 'Acme',
  customerKey: 'ACME000001',
  selfService: false,
  paymentStatus: null,
  accountExecutive,
  billingEmail: null,
  yourRole,
  yourMembershipId: null,
  yourSettings: null,
  can: customerCan(yourRole),
});
const sam = { fullName: 'Sam Seller', email: 'sam@demo.portal' };
const candidates = [
  { id: 7, fullName: 'Nora North', email: 'nora@demo.portal' },
  { id: 8, fullName: 'Sam Seller', email: 'sam@demo.portal' },
];

describe('AccountExecutiveControl', () => {
  it('shows the account executive to everyone, the change button only to roles with manageLicences', () => {
    fakeApi({});
    for (const role of ['businessOwner', 'technicalContact', 'endUser', 'supportEngineer'] as const) {
      const { unmount } = renderPage(<AccountExecutiveControl customer={acme(role, sam)} />);
      expect(screen.getByTestId('footer-account-executive').textContent).toBe(
        `${role === 'supportEngineer' ? 'Account executive:' : 'Your account executive:'} Sam Seller (sam@demo.portal)`,
      );
      expect(screen.queryByTestId('account-executive-change'), role).toBeNull();
      unmount();
    }
    const { unmount } = renderPage(<AccountExecutiveControl customer={acme('businessOwner')} />);
    expect(screen.queryByTestId('footer-account-executive')).toBeNull();
    unmount();
    renderPage(<AccountExecutiveControl customer={acme('productManager')} />);
    expect(screen.getByTestId('footer-account-executive').textContent).toBe('No account executive');
    expect(screen.getByRole('button', { name: 'Change the account executive' })).toBeTruthy();
  });

  it('searches the candidates on the server, sends the one picked and says so', async () => {
    const api = fakeApi({
      'GET /api/customers/4/account-executive/candidates': ({ query }) => {
        const filter = (query.get('filter') ?? '').toLowerCase();
        return {
          status: 200,
          body: { data: candidates.filter((c) => `${c.fullName} ${c.email}`.toLowerCase().includes(filter)) },
        };
      },
      'PUT /api/customers/4/account-executive': () => ({
        status: 200,
        body: acme('accountExecutive', { fullName: 'Nora North', email: 'nora@demo.portal' }),
      }),
    });
    renderPage(<AccountExecutiveControl customer={acme('accountExecutive', sam)} />);
    fireEvent.click(screen.getByRole('button', { name: 'Change the account executive' }));
    const dialog = await screen.findByRole('dialog');

    // Nothing chosen: the form says so and sends nothing
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Choose an account executive.')).toBeTruthy();

    const input = within(dialog).getByRole('combobox', { name: 'Account executive' });
    fireEvent.change(input, { target: { value: 'nor' } });
    await waitFor(() =>
      expect(
        api.calls('GET /api/customers/4/account-executive/candidates').map((r) => r.query.get('filter')),
      ).toContain('nor'),
    );
    fireEvent.click(await within(dialog).findByRole('option', { name: 'Nora North (nora@demo.portal)' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls('PUT /api/customers/4/account-executive')[0].body).toEqual({ userId: 7 });
    expect(toastHistory.getSnapshot()[0]).toMatchObject({
      status: 'success',
      message: 'Nora North is now the account executive of Acme.',
    });
  });
});
