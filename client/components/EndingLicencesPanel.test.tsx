// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Profile } from '../../common/api/auth';
import type { EndingLicence } from '../../common/api/licences';
import { HomePage } from '../pages/home/HomePage';
import { SelectAccountPage } from '../pages/select-account/SelectAccountPage';
import { profileCan } from '../test/abilities';
import { apiError, type FakeHandler, fakeApi } from '../test/fake-api';
import { adminProfile, renderPage } from '../test/render';
import { EndingLicencesPanel, seesEndingLicences } from './EndingLicencesPanel';

const licence = (id: number, customerName: string, endDate: string, props: Partial<EndingLicence> = {}) => ({
  id,
  customerId: 100 + id,
  customerName,
  productKey: 'graph-server',
  productName: 'Graph Server',
  endDate,
  status: 'warning' as const,
  ...props,
});

/** GET /api/licenses/ending as the server answers it: one page of `all`, soonest first. */
const endingAnswer =
  (all: EndingLicence[]): FakeHandler =>
  ({ query }) => {
    const offset = Number(query.get('pageOffset') ?? 0);
    const length = Number(query.get('pageLength') ?? 10);
    return {
      status: 200,
      body: { data: all.slice(offset, offset + length), offset, total: all.length, totalCapped: false },
    };
  };

const rows = () => screen.getAllByTestId('ending-licence');

describe('EndingLicencesPanel', () => {
  it('lists each licence with its customer, product, coloured end date and a link to renew it', async () => {
    const api = fakeApi({
      'GET /api/licenses/ending': endingAnswer([
        licence(1, 'Acme Analytics', '2026-12-03'),
        licence(2, 'Globex', '2027-02-20', { productName: 'Graph Studio', status: 'valid' }),
      ]),
    });
    renderPage(<EndingLicencesPanel />);
    const panel = await screen.findByRole('region', { name: 'Licences ending in the next 90 days' });
    await waitFor(() => expect(rows()).toHaveLength(2));
    const [first, second] = rows();
    expect(within(first).getByText('Acme Analytics')).toBeTruthy();
    expect(within(first).getByText('Graph Server')).toBeTruthy();
    const date = within(first).getByTestId('ending-licence-date');
    expect(date.textContent).toBe('03 Dec 2026 (expires soon)');
    expect(date.getAttribute('data-status')).toBe('warning');
    expect(date.getAttribute('style')).toContain('orange');
    expect(within(second).getByTestId('ending-licence-date').getAttribute('style')).toContain('green');
    const renew = within(first).getByRole('link', { name: 'Renew the Graph Server licence of Acme Analytics' });
    expect(renew.textContent).toBe('Renew');
    expect(renew.getAttribute('href')).toBe('/en/accounts/101?renew=1');
    expect(within(panel).queryByTestId('pagination')).toBeNull();
    expect(api.calls('GET /api/licenses/ending')[0].query.get('pageLength')).toBe('10');
  });

  it('writes the end date with French months in French and links to the French page', async () => {
    fakeApi({ 'GET /api/licenses/ending': endingAnswer([licence(3, 'Initech', '2027-02-01')]) });
    renderPage(<EndingLicencesPanel />, { path: '/fr' });
    await screen.findByTestId('ending-licence');
    expect(screen.getByTestId('ending-licence-date').textContent).toBe('01 févr. 2027 (expire bientôt)');
    expect(
      screen.getByRole('link', { name: 'Renouveler la licence Graph Server de Initech' }).getAttribute('href'),
    ).toBe('/fr/accounts/103?renew=3');
    expect(
      screen.getByRole('heading', { name: 'Licences arrivant à échéance dans les 90 prochains jours' }),
    ).toBeTruthy();
  });

  it('pages ten at a time', async () => {
    const all = Array.from({ length: 13 }, (_, i) => licence(i + 1, `Customer ${i + 1}`, '2026-12-20'));
    const api = fakeApi({ 'GET /api/licenses/ending': endingAnswer(all) });
    renderPage(<EndingLicencesPanel />);
    await waitFor(() => expect(rows()).toHaveLength(10));
    expect(screen.getByText('Page 1 of 2')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(within(rows()[0]).getByText('Customer 11')).toBeTruthy();
    expect(api.calls('GET /api/licenses/ending').map((r) => r.query.get('pageOffset'))).toEqual(['0', '10']);
  });

  it('says when no licence ends in the next 90 days', async () => {
    fakeApi({ 'GET /api/licenses/ending': endingAnswer([]) });
    renderPage(<EndingLicencesPanel />);
    expect((await screen.findByTestId('ending-licences-empty')).textContent).toBe(
      'No licence ends in the next 90 days',
    );
    expect(screen.queryByTestId('ending-licence')).toBeNull();
  });

  it('shows a loader while the list is on its way', async () => {
    let answer: (value: { status: number; body: unknown }) => void = () => {};
    fakeApi({ 'GET /api/licenses/ending': () => new Promise((resolve) => (answer = resolve)) });
    renderPage(<EndingLicencesPanel />);
    expect(await screen.findByTestId('ending-licences-loader')).toBeTruthy();
    answer({
      status: 200,
      body: { data: [licence(1, 'Acme Analytics', '2026-12-03')], offset: 0, total: 1, totalCapped: false },
    });
    await screen.findByTestId('ending-licence');
    expect(screen.queryByTestId('ending-licences-loader')).toBeNull();
  });

  it('says why the list failed and loads it again on request', async () => {
    let calls = 0;
    fakeApi({
      'GET /api/licenses/ending': () =>
        calls++ === 0
          ? apiError(503, 'http_error', 'Service Unavailable')
          : {
              status: 200,
              body: { data: [licence(1, 'Acme Analytics', '2026-12-03')], offset: 0, total: 1, totalCapped: false },
            },
    });
    renderPage(<EndingLicencesPanel />);
    const error = await screen.findByTestId('ending-licences-error');
    expect(error.textContent).toContain(
      'The licences ending soon could not be loaded: The server could not answer. Please try again later.',
    );
    fireEvent.click(within(error).getByRole('button', { name: 'Try again' }));
    await screen.findByTestId('ending-licence');
    expect(screen.queryByTestId('ending-licences-error')).toBeNull();
  });
});

describe('who sees the licences ending soon', () => {
  const withRole = (type: Profile['type'], yourRole: Profile['yourRole']): Profile => ({
    ...adminProfile,
    type,
    yourRole,
    can: profileCan(type, yourRole),
  });

  it('is those who renew licences', () => {
    expect(seesEndingLicences(withRole('admin', 'admin'))).toBe(true);
    expect(seesEndingLicences(withRole('productManager', 'productManager'))).toBe(true);
    expect(seesEndingLicences(withRole('accountExecutive', 'accountExecutive'))).toBe(true);
    expect(seesEndingLicences(withRole('supportEngineer', 'supportEngineer'))).toBe(false);
    expect(seesEndingLicences(withRole('client', 'businessOwner'))).toBe(false);
    expect(seesEndingLicences(withRole('client', 'technicalContact'))).toBe(false);
    expect(seesEndingLicences(null)).toBe(false);
  });

  it('shows the panel on a product manager’s home', async () => {
    fakeApi({ 'GET /api/licenses/ending': endingAnswer([licence(1, 'Acme Analytics', '2026-12-03')]) });
    renderPage(<HomePage />, { profile: withRole('productManager', 'productManager') });
    expect(await screen.findByTestId('ending-licence')).toBeTruthy();
  });

  it('neither shows nor asks for it on a support engineer’s home', async () => {
    const api = fakeApi({ 'GET /api/licenses/ending': endingAnswer([licence(1, 'Acme Analytics', '2026-12-03')]) });
    renderPage(<HomePage />, { profile: withRole('supportEngineer', 'supportEngineer') });
    await screen.findByRole('region', { name: 'Shortcuts' });
    expect(screen.queryByTestId('ending-licences')).toBeNull();
    expect(api.calls('GET /api/licenses/ending')).toHaveLength(0);
  });

  const accounts = (yourRole: string) => ({
    status: 200,
    body: {
      data: [
        { id: 1, name: 'Acme Analytics', customerKey: 'KEY0000001', selfService: false, yourRole },
        { id: 2, name: 'Globex', customerKey: 'KEY0000002', selfService: false, yourRole },
      ],
      offset: 0,
      total: 2,
      totalCapped: false,
    },
  });

  it('shows the panel under an account executive’s accounts', async () => {
    fakeApi({
      'GET /api/customers': () => accounts('accountExecutive'),
      'GET /api/licenses/ending': endingAnswer([licence(1, 'Acme Analytics', '2026-12-03')]),
    });
    renderPage(<SelectAccountPage />, {
      path: '/en/select-account',
      route: '/:locale/select-account',
      profile: withRole('accountExecutive', 'accountExecutive'),
    });
    expect(await screen.findByTestId('ending-licence')).toBeTruthy();
    expect(screen.getAllByTestId('account-entry')).toHaveLength(2);
  });

  it('neither shows nor asks for it on a project manager’s picker', async () => {
    const api = fakeApi({
      'GET /api/customers': () => accounts('businessOwner'),
      'GET /api/licenses/ending': endingAnswer([licence(1, 'Acme Analytics', '2026-12-03')]),
    });
    renderPage(<SelectAccountPage />, {
      path: '/en/select-account',
      route: '/:locale/select-account',
      profile: withRole('client', 'businessOwner'),
    });
    await waitFor(() => expect(screen.getAllByTestId('account-entry')).toHaveLength(2));
    expect(screen.queryByTestId('ending-licences')).toBeNull();
    expect(api.calls('GET /api/licenses/ending')).toHaveLength(0);
  });
});
