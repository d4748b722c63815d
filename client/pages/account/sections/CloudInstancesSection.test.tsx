// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Customer } from '../../../../common/api/customers';
import type { Instance, InstanceList } from '../../../../common/api/instances';
import type { InstanceStatus } from '../../../../common/domain';
import type { Role } from '../../../../common/roles';
import { INSTANCES_POLL_MS } from '../../../api/instances';
import { customerCan } from '../../../test/abilities';
import { apiError, fakeApi } from '../../../test/fake-api';
import { renderPage } from '../../../test/render';
import { toastHistory } from '../../../components/notify';
import { CloudInstancesSection } from './CloudInstancesSection';

const customer = (yourRole: Role): Customer => ({
  id: 7,
  name: 'Acme',
  customerKey: 'ACME000001',
  selfService: true,
  paymentStatus: 'trial',
  accountExecutive: null,
  billingEmail: null,
  yourRole,
  yourMembershipId: null,
  yourSettings: null,
  can: customerCan(yourRole),
});

const STAFF: Role[] = ['admin', 'supportEngineer'];

/** An instance as the server answers it to `role` (server/modules/instances/policy.ts, mirrored). */
function instance(id: number, status: InstanceStatus, role: Role): Instance {
  const name = `${status}-${id}`;
  const provisioned = status === 'provisioned';
  const staff = STAFF.includes(role);
  return {
    id,
    name,
    tier: 'trial',
    status,
    url: provisioned ? `https://${name}.example.com` : null,
    logsUrl: provisioned && staff ? `https://logs.example.com/${name}` : null,
    deleteDataDelayInDays: 30,
    deleteDataAt: status === 'archived' ? '2026-03-01T10:00:00.000Z' : null,
    can: {
      open: provisioned,
      logs: provisioned && staff,
      archive: staff && provisioned,
      restore: staff && status === 'archived',
    },
  };
}

const listOf = (items: Instance[]): InstanceList => ({
  data: items,
  offset: 0,
  total: items.length,
  totalCapped: false,
});
const ALL: InstanceStatus[] = ['creating', 'provisioning', 'provisioned', 'archived', 'deleting', 'deleted'];

function setup(role: Role, statuses: InstanceStatus[] = ALL) {
  const answers = { list: listOf(statuses.map((status, i) => instance(i + 1, status, role))) };
  const api = fakeApi({
    'GET /api/customers/7/instances': () => ({ status: 200, body: answers.list }),
  });
  return { api, answers };
}

const renderSection = (role: Role, path = '/en/accounts/7') =>
  renderPage(<CloudInstancesSection customer={customer(role)} />, { path, route: '/:locale/accounts/:id' });

const rowOf = (name: string) =>
  within(screen.getByTestId('instances-table'))
    .getAllByTestId('instance-row')
    .find((row) => row.dataset.name === name)!;

afterEach(() => vi.useRealTimers());

describe('CloudInstancesSection', () => {
  it('shows each status with the spec’s label and dot, and the open link only when ready', async () => {
    setup('businessOwner');
    renderSection('businessOwner');
    await screen.findByTestId('instances-table');
    const shown = ALL.map((status, i) => {
      const badge = within(rowOf(`${status}-${i + 1}`)).getByTestId('instance-status');
      return [badge.textContent, badge.dataset.dot];
    });
    expect(shown).toEqual([
      ['Creating', 'invalid'],
      ['Provisioning', 'warning'],
      ['Ready', 'valid'],
      ['Disabled', 'invalid'],
      ['Deleting', 'invalid'],
      ['Deleted', 'invalid'],
    ]);
    const open = screen.getAllByRole('link', { name: /^Open / });
    expect(open).toHaveLength(1);
    expect(open[0].getAttribute('href')).toBe('https://provisioned-3.example.com');
    expect(open[0].getAttribute('target')).toBe('_blank');
    expect(open[0].getAttribute('rel')).toBe('noopener noreferrer');
    expect(open[0].getAttribute('aria-label')).toBe('Open provisioned-3 (new tab)');
    // the others show the action, inactive
    expect(
      screen.getAllByTestId('instance-open-inactive').every((button) => (button as HTMLButtonElement).disabled),
    ).toBe(true);
    expect(within(rowOf('archived-4')).getByTestId('instance-delete-on').textContent).toBe(
      'Data deleted on 01 Mar 2026',
    );
    expect(within(rowOf('creating-1')).getByRole('cell', { name: 'Trial' })).toBeTruthy();
  });

  it('links the logs and offers archive and restore to support engineers and admins only', async () => {
    for (const role of [
      'businessOwner',
      'technicalContact',
      'endUser',
      'accountExecutive',
      'productManager',
    ] as Role[]) {
      setup(role);
      const { unmount } = renderSection(role);
      await screen.findByTestId('instances-table');
      expect(screen.queryByRole('columnheader', { name: 'Logs' }), role).toBeNull();
      expect(screen.queryByTestId('instance-logs'), role).toBeNull();
      expect(screen.queryByRole('columnheader', { name: 'Actions' }), role).toBeNull();
      unmount();
    }
    for (const role of STAFF) {
      setup(role);
      const { unmount } = renderSection(role);
      await screen.findByTestId('instances-table');
      const logs = screen.getAllByTestId('instance-logs');
      expect(
        logs.map((link) => link.getAttribute('href')),
        role,
      ).toEqual(['https://logs.example.com/provisioned-3']);
      expect(within(rowOf('provisioned-3')).getByRole('button', { name: 'Archive provisioned-3' })).toBeTruthy();
      expect(within(rowOf('archived-4')).getByRole('button', { name: 'Restore archived-4' })).toBeTruthy();
      expect(screen.getAllByTestId(/^instance-(archive|restore)$/), role).toHaveLength(2);
      unmount();
    }
  });

  it('is hidden when the customer has no instance', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { api } = setup('admin', []);
    renderSection('admin');
    await waitFor(() => expect(api.calls('GET /api/customers/7/instances')).toHaveLength(1));
    await act(() => vi.advanceTimersByTimeAsync(INSTANCES_POLL_MS * 3));
    expect(screen.queryByTestId('instances-section')).toBeNull();
    expect(api.calls('GET /api/customers/7/instances')).toHaveLength(1);
  });

  it('speaks French', async () => {
    setup('supportEngineer', ['provisioned', 'archived']);
    renderSection('supportEngineer', '/fr/accounts/7');
    await screen.findByTestId('instances-table');
    expect(screen.getAllByTestId('instance-status').map((badge) => badge.textContent)).toEqual(['Prête', 'Désactivée']);
    expect(screen.getByRole('link', { name: 'Ouvrir provisioned-1 (nouvel onglet)' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Restaurer archived-2' })).toBeTruthy();
  });

  it('asks again while an instance is on its way, and stops once it is ready', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { api, answers } = setup('businessOwner', ['creating']);
    renderSection('businessOwner');
    await screen.findByTestId('instances-table');
    expect(screen.getByTestId('instances-polling')).toBeTruthy();
    const calls = () => api.calls('GET /api/customers/7/instances').length;
    await act(() => vi.advanceTimersByTimeAsync(INSTANCES_POLL_MS));
    await waitFor(() => expect(calls()).toBe(2));
    answers.list = listOf([instance(1, 'provisioned', 'businessOwner')]);
    await act(() => vi.advanceTimersByTimeAsync(INSTANCES_POLL_MS));
    await waitFor(() => expect(screen.getByTestId('instance-status').textContent).toBe('Ready'));
    expect(screen.getByRole('link', { name: 'Open provisioned-1 (new tab)' })).toBeTruthy();
    expect(screen.queryByTestId('instances-polling')).toBeNull();
    const settled = calls();
    await act(() => vi.advanceTimersByTimeAsync(INSTANCES_POLL_MS * 4));
    expect(calls()).toBe(settled);
  });

  it('archives after a confirmation, then reloads the list', async () => {
    const { answers } = setup('supportEngineer', ['provisioned']);
    const archive = vi.fn(() => {
      answers.list = listOf([{ ...instance(1, 'archived', 'supportEngineer'), name: 'provisioned-1' }]);
      return { status: 200, body: answers.list.data[0] };
    });
    fakeApi({
      'GET /api/customers/7/instances': () => ({ status: 200, body: answers.list }),
      'POST /api/instances/1/archive': archive,
    });
    renderSection('supportEngineer');
    fireEvent.click(await screen.findByRole('button', { name: 'Archive provisioned-1' }));
    const dialog = await screen.findByTestId('instance-confirm');
    expect(dialog.textContent).toContain(
      'provisioned-1 will stop answering at once. Its data will be deleted after 30 days unless it is restored before.',
    );
    expect(archive).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('instance-confirm-yes'));
    await waitFor(() => expect(archive).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(screen.getByTestId('instance-status').textContent).toBe('Disabled'));
    expect(screen.getByRole('button', { name: 'Restore provisioned-1' })).toBeTruthy();
    expect(toastHistory.getSnapshot()[0]).toMatchObject({
      status: 'success',
      message: 'The cloud instance provisioned-1 is archived.',
    });
  });

  it('says clearly when the instance moved on meanwhile (409)', async () => {
    const { answers } = setup('admin', ['archived']);
    fakeApi({
      'GET /api/customers/7/instances': () => ({ status: 200, body: answers.list }),
      'POST /api/instances/1/restore': () => apiError(409, 'conflict', 'The cloud instance archived-1 is deleting'),
    });
    renderSection('admin');
    fireEvent.click(await screen.findByRole('button', { name: 'Restore archived-1' }));
    fireEvent.click(await screen.findByTestId('instance-confirm-yes'));
    await waitFor(() =>
      expect(toastHistory.getSnapshot()[0]).toMatchObject({
        status: 'error',
        message: 'archived-1 changed in the meantime and cannot be restored now. The list shows where it stands.',
      }),
    );
  });
});
