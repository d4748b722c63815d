// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Customer } from '../../../../common/api/customers';
import type { LogEntry, LogList } from '../../../../common/api/logs';
import { formatDateTime } from '../../../../common/format';
import type { Role } from '../../../../common/roles';
import { customerCan } from '../../../test/abilities';
import { fakeApi } from '../../../test/fake-api';
import { renderPage } from '../../../test/render';
import { RecentActionsSection } from './RecentActionsSection';

const customer = (yourRole: Role): Customer => ({
  id: 7,
  name: 'Acme',
  customerKey: 'ACME000001',
  selfService: false,
  paymentStatus: null,
  accountExecutive: null,
  billingEmail: null,
  yourRole,
  yourMembershipId: null,
  yourSettings: null,
  can: customerCan(yourRole),
});

const entry = (id: number, fields: Partial<LogEntry>): LogEntry => ({
  id,
  actorEmail: 'tc@acme.example',
  actorKind: 'user',
  actorName: null,
  action: 'updateMemberStatus',
  date: '2026-01-15T09:05:00.000Z',
  anonymousDownload: false,
  productName: null,
  productVersion: null,
  productPlatform: null,
  invitationFrom: null,
  data: {},
  ...fields,
});

const page: LogList = {
  data: [
    entry(4, {
      action: 'downloadArtifact',
      productName: 'Graph Server',
      productVersion: '4.1.0',
      productPlatform: 'linux',
    }),
    entry(3, {
      action: 'downloadArtifact',
      actorEmail: null,
      actorKind: 'anonymous',
      anonymousDownload: true,
      productName: 'Graph Server',
      productVersion: '4.0.2',
      productPlatform: 'docker',
    }),
    entry(2, {
      action: 'acceptInvitation',
      invitationFrom: 'owner@acme.example',
      data: { invitationFrom: 'owner@acme.example', inviterFullName: 'Olivia Owner' },
    }),
    entry(1, { action: 'updateMemberStatus', date: '2026-02-03T17:45:00.000Z' }),
  ],
  offset: 0,
  total: 4,
  totalCapped: false,
};

function setup(as: Role, logs: (action: string | null, offset: string | null) => LogList = () => page) {
  role = as;
  return fakeApi({
    'GET /api/customers/7/logs': (request) => ({
      status: 200,
      body: logs(request.query.get('action'), request.query.get('pageOffset')),
    }),
  });
}

let role: Role = 'admin';

const renderSection = (path = '/en/accounts/7') =>
  renderPage(<RecentActionsSection customer={customer(role)} />, { path, route: '/:locale/accounts/:id' });

const rows = () => within(screen.getByTestId('recent-actions-table')).getAllByTestId('recent-action');

afterEach(() => vi.useRealTimers());

describe('RecentActionsSection', () => {
  it('describes downloads and accepted invitations in words, other actions by name, with author and date', async () => {
    setup('businessOwner');
    renderSection();
    await waitFor(() => expect(rows()).toHaveLength(4));
    const cells = rows().map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );
    expect(cells[0]).toEqual([
      'Downloaded Graph Server 4.1.0 for Linux',
      'tc@acme.example',
      formatDateTime('2026-01-15T09:05:00.000Z', 'en'),
    ]);
    expect(cells[1].slice(0, 2)).toEqual([
      'Downloaded Graph Server 4.0.2 for Docker (anonymous download)',
      'Anonymous',
    ]);
    expect(cells[2][0]).toBe('Joined, invited by Olivia Owner');
    expect(cells[3][0]).toBe('Member status changed');
    expect(cells[0][2]).toMatch(/^15 Jan 2026 \d\d:\d\d$/);
  });

  it('names the integration or the job that acted, never "Anonymous" for the portal\'s own work', async () => {
    const system = (id: number, actorKind: LogEntry['actorKind'], actorName: string, action: LogEntry['action']) =>
      entry(id, { actorEmail: null, actorKind, actorName, action });
    const machines: LogList = {
      data: [
        system(5, 'integration', 'stripe', 'updatePaymentStatus'),
        system(4, 'integration', 'provisioner', 'updateInstanceStatus'),
        system(3, 'job', 'billing.graceEnd', 'updatePaymentStatus'),
        system(2, 'job', 'instances.simulate', 'updateInstanceStatus'),
        system(1, 'token', '#3 release pipeline', 'updateMemberStatus'),
      ],
      offset: 0,
      total: 5,
      totalCapped: false,
    };
    const authors = () => rows().map((row) => within(row).getAllByRole('cell')[1].textContent);
    setup('admin', () => machines);
    const { unmount } = renderSection();
    await waitFor(() => expect(rows()).toHaveLength(5));
    expect(authors()).toEqual([
      'Payment provider',
      'Cloud provisioner',
      'Portal (end of the payment grace period)',
      'Cloud provisioner',
      'API token #3 release pipeline',
    ]);
    unmount();
    renderSection('/fr/accounts/7');
    await waitFor(() => expect(rows()).toHaveLength(5));
    expect(authors()).toEqual([
      'Prestataire de paiement',
      'Service de provisionnement cloud',
      'Portail (fin du délai de grâce de paiement)',
      'Service de provisionnement cloud',
      "Jeton d'API #3 release pipeline",
    ]);
  });

  it('writes dates with French month names, and the words in French', async () => {
    setup('admin');
    renderSection('/fr/accounts/7');
    await waitFor(() => expect(rows()).toHaveLength(4));
    const cells = rows().map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );
    expect(cells[0][0]).toBe('A téléchargé Graph Server 4.1.0 pour Linux');
    expect(cells[2][0]).toBe('A rejoint le compte, invité par Olivia Owner');
    expect(cells[0][2]).toMatch(/^15 janv\. 2026 \d\d:\d\d$/);
    expect(cells[3][2]).toMatch(/^0[34] févr\. 2026 \d\d:\d\d$/);
  });

  it('filters by action from the first page, and the export link follows the filter', async () => {
    const api = setup('accountExecutive', (action) =>
      action ? { ...page, data: page.data.filter((e) => e.action === action), total: 1 } : page,
    );
    renderSection();
    await waitFor(() => expect(rows()).toHaveLength(4));
    const exportLink = screen.getByRole('link', { name: 'Export CSV' });
    expect(exportLink.getAttribute('href')).toBe('/api/customers/7/logs.csv');
    fireEvent.change(screen.getByLabelText('Action'), { target: { value: 'acceptInvitation' } });
    await waitFor(() => expect(rows()).toHaveLength(1));
    const last = api.calls('GET /api/customers/7/logs').at(-1)!;
    expect(last.query.get('action')).toBe('acceptInvitation');
    expect(last.query.get('pageOffset')).toBe('0');
    expect(exportLink.getAttribute('href')).toBe('/api/customers/7/logs.csv?action=acceptInvitation');
  });

  it('says when there is nothing to show', async () => {
    setup('supportEngineer', () => ({ data: [], offset: 0, total: 0, totalCapped: false }));
    renderSection();
    expect(await screen.findByTestId('recent-actions-empty')).toHaveProperty('textContent', 'No actions yet.');
  });

  it('pages on through the list', async () => {
    const api = setup('admin', (_action, offset) => ({ ...page, total: 25, offset: Number(offset) }));
    renderSection();
    await waitFor(() => expect(rows()).toHaveLength(4));
    fireEvent.click(screen.getByRole('button', { name: /next/i }));
    await waitFor(() => expect(api.calls('GET /api/customers/7/logs').at(-1)!.query.get('pageOffset')).toBe('10'));
  });

  it('renders nothing and loads nothing for technical contacts and end users', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    for (const role of ['technicalContact', 'endUser'] as const) {
      const api = setup(role);
      const { unmount } = renderSection();
      // every timer the section could have set (a delayed loader, a debounced load) has run
      await act(() => vi.advanceTimersByTimeAsync(1000));
      expect(screen.queryByTestId('recent-actions-section')).toBeNull();
      expect(api.calls('GET /api/customers/7/logs')).toHaveLength(0);
      unmount();
    }
  });

  it('keeps the filter and the page in the address: a shared link opens the same page', async () => {
    const api = setup('admin', () => ({ ...page, offset: 10, total: 14 }));
    renderSection('/en/accounts/7?actions=inviteMember&actions-page=2');
    await waitFor(() => expect(rows()).toHaveLength(4));
    const asked = api.calls('GET /api/customers/7/logs')[0].query;
    expect([asked.get('action'), asked.get('pageOffset')]).toEqual(['inviteMember', '10']);
    expect((screen.getByTestId('recent-actions-filter') as HTMLSelectElement).value).toBe('inviteMember');
  });
});
