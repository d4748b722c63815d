// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Profile } from '../../../common/api/auth';
import type { MembershipSettings } from '../../../common/api/settings';
import { NOTIFICATION_SETTINGS } from '../../../common/domain';
import type { MemberRole } from '../../../common/roles';
import { toastHistory } from '../../components/notify';
import { profileCan } from '../../test/abilities';
import { apiError, type FakeHandler, fakeApi } from '../../test/fake-api';
import { adminProfile, renderPage } from '../../test/render';
import { SettingsPage } from './SettingsPage';

const allOn = Object.fromEntries(NOTIFICATION_SETTINGS.map((flag) => [flag, true])) as MembershipSettings['settings'];

const membership = (membershipId: number, customerName: string, role: MemberRole): MembershipSettings => ({
  membershipId,
  customerId: membershipId + 100,
  customerName,
  role,
  settings: { ...allOn },
});

const clientProfile: Profile = {
  ...adminProfile,
  id: 5,
  email: 'owner@acme.example',
  fullName: 'Olivia Owner',
  type: 'client',
  yourRole: 'businessOwner',
  accounts: [],
  accountsTotal: 3,
  can: profileCan('client', 'businessOwner'),
};

const executiveProfile: Profile = {
  ...clientProfile,
  type: 'accountExecutive',
  yourRole: 'accountExecutive',
  can: profileCan('accountExecutive', 'accountExecutive'),
};

function setup(profile: Profile, memberships: MembershipSettings[], routes: Record<string, FakeHandler> = {}) {
  const api = fakeApi({
    'GET /api/members/mine': () => ({
      status: 200,
      body: { data: memberships, offset: 0, total: memberships.length, totalCapped: false },
    }),
    'PATCH /api/auth/me': () => ({ status: 200, body: profile }),
    'GET /api/auth/me': () => ({ status: 200, body: profile }),
    ...routes,
  });
  renderPage(<SettingsPage />, { path: '/en/settings', route: '/:locale/settings', profile });
  return api;
}

const blocks = () => screen.findAllByTestId('settings-notification-block');
const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save' }));

describe('Settings: notification blocks', () => {
  it('gives a business owner one block per customer where they are businessOwner or technicalContact', async () => {
    setup(clientProfile, [
      membership(11, 'Acme', 'businessOwner'),
      membership(12, 'Globex', 'technicalContact'),
      membership(13, 'Initech', 'endUser'),
    ]);
    const found = await blocks();
    expect(found.map((block) => within(block).getByRole('heading').textContent)).toEqual([
      'Acme (Project manager)',
      'Globex (Technical contact)',
    ]);
    expect(within(found[0]).getAllByRole('checkbox')).toHaveLength(8);
    expect(within(found[0]).getByLabelText('A new version is released')).toHaveProperty('checked', true);
  });

  it('saves the profile and each changed block together, only the changed flags, then says so', async () => {
    const api = setup(
      clientProfile,
      [membership(11, 'Acme', 'businessOwner'), membership(12, 'Globex', 'technicalContact')],
      {
        'PATCH /api/members/11/settings': () => ({ status: 200, body: membership(11, 'Acme', 'businessOwner') }),
      },
    );
    const [acme] = await blocks();
    fireEvent.click(within(acme).getByLabelText('A new version is released'));
    fireEvent.click(within(acme).getByLabelText('An e-mail could not be delivered'));
    // set back: not a change any more
    fireEvent.click(within(acme).getByLabelText('An e-mail could not be delivered'));
    save();
    await waitFor(() => expect(api.calls('PATCH /api/members/11/settings')).toHaveLength(1));
    expect(api.calls('PATCH /api/members/11/settings')[0].body).toEqual({ notifyNewVersion: false });
    expect(api.calls('PATCH /api/members/12/settings')).toHaveLength(0);
    expect(api.calls('PATCH /api/auth/me')).toHaveLength(1);
    await waitFor(() =>
      expect(toastHistory.getSnapshot()[0]).toMatchObject({
        status: 'success',
        message: 'Your settings have been saved.',
      }),
    );
    // the blocks are read again from the server
    await waitFor(() => expect(api.calls('GET /api/members/mine').length).toBeGreaterThan(1));
  });

  it('says "Some of your settings could not be updated." when a block fails though the profile was saved', async () => {
    const api = setup(
      clientProfile,
      [membership(11, 'Acme', 'businessOwner'), membership(12, 'Globex', 'technicalContact')],
      {
        'PATCH /api/members/11/settings': () => ({ status: 200, body: membership(11, 'Acme', 'businessOwner') }),
        'PATCH /api/members/12/settings': () => apiError(500, 'internal_error', 'Internal error'),
      },
    );
    const [acme, globex] = await blocks();
    fireEvent.click(within(acme).getByLabelText('A licence has expired'));
    fireEvent.click(within(globex).getByLabelText('A licence has expired'));
    save();
    const alert = await screen.findByTestId('settings-error');
    expect(alert.textContent).toContain('Some of your settings could not be updated.');
    expect(api.calls('PATCH /api/auth/me')).toHaveLength(1);
    await waitFor(() =>
      expect(toastHistory.getSnapshot()[0]).toMatchObject({
        status: 'error',
        title: 'Some of your settings could not be updated.',
      }),
    );
    // the block that failed keeps its change on screen, to be saved again
    expect(within(globex).getByLabelText('A licence has expired')).toHaveProperty('checked', false);
  });

  it('gives an account executive one block for all their customers', async () => {
    const api = setup(executiveProfile, [membership(21, 'Acme', 'accountExecutive')]);
    const found = await blocks();
    expect(found).toHaveLength(1);
    expect(within(found[0]).getByRole('heading').textContent).toBe('All your customers (account executive)');
    expect(api.calls('GET /api/members/mine')[0].query.get('pageLength')).toBe('1');
  });

  it('shows no block to staff outside any customer, and asks for none', async () => {
    const api = setup(adminProfile, []);
    expect(await screen.findByTestId('settings-profile')).toBeTruthy();
    expect(screen.queryByTestId('settings-notifications')).toBeNull();
    expect(api.calls('GET /api/members/mine')).toHaveLength(0);
  });
});
