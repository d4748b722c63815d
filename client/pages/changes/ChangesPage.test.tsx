// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Version } from '../../../common/api/catalogue';
import type { Customer } from '../../../common/api/customers';
import type { Licence } from '../../../common/api/licences';
import { customerCan, licenceCan, versionCan } from '../../test/abilities';
import { type FakeHandler, fakeApi } from '../../test/fake-api';
import { renderPage } from '../../test/render';
import { ChangesPage } from './ChangesPage';

const customer: Customer = {
  id: 7,
  name: 'Acme',
  customerKey: 'ACME000001',
  selfService: false,
  paymentStatus: null,
  accountExecutive: null,
  billingEmail: null,
  yourRole: 'technicalContact',
  yourMembershipId: 70,
  yourSettings: null,
  can: customerCan('technicalContact'),
};

const licence: Licence = {
  id: 3,
  customerId: 7,
  productKey: 'server',
  productName: 'Graph Server',
  isSaas: false,
  customizationType: 'none',
  hasEntityResolution: false,
  status: 'valid',
  startDate: '2026-01-01',
  endDate: '2027-03-05',
  accessLevel: 'beta',
  data: {},
  downloadSecret: 'the secret',
  customizationId: null,
  latestDownload: null,
  latestFilesReleased: null,
  can: licenceCan('technicalContact', 'none'),
};

/** The versions the beta licence allows, newest first. */
const ALL = ['1.3.0-beta.1', '1.2.0', '1.1.0', '1.0.0'].map((semVer, i): Version => ({
  id: 10 - i,
  productKey: 'server',
  productName: 'Graph Server',
  title: `Release ${semVer}`,
  type: semVer.includes('beta') ? 'beta' : 'stable',
  semVer,
  description: `Notes of ${semVer}`,
  descriptionHtml: `<p>Notes of ${semVer}</p>`,
  releaseDate: '2026-10-01',
  published: true,
  artifacts: [],
  latestFor: i === 0 ? ['beta'] : [],
  can: versionCan('client', { published: true }),
}));

/** The list as the server answers it: `since` keeps the newer ones (the order above is the semver order). */
const versions: FakeHandler = ({ query }) => {
  const since = query.get('since');
  const newer =
    since === null
      ? ALL
      : ALL.slice(
          0,
          Math.max(
            0,
            ALL.findIndex((v) => v.semVer === since),
          ),
        );
  return { status: 200, body: { data: newer, offset: 0, total: newer.length, totalCapped: false } };
};

function open(path: string) {
  const api = fakeApi({
    'GET /api/customers/7': () => ({ status: 200, body: customer }),
    'GET /api/customers/7/licenses': () => ({
      status: 200,
      body: { data: [licence], offset: 0, total: 1, totalCapped: false },
    }),
    'GET /api/products/server/versions': versions,
  });
  renderPage(<ChangesPage />, { path, route: '/:locale/accounts/:id/changes/:productKey/:since' });
  return api;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ChangesPage', () => {
  it('shows the notes of every newer version the licence allows, newest first, whole', async () => {
    const api = open('/en/accounts/7/changes/server/1.1.0');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Graph Server: what changed since 1.1.0' }),
    ).toBeTruthy();
    await waitFor(() =>
      expect(screen.getAllByTestId('version-semver').map((h) => h.textContent)).toEqual(['1.3.0-beta.1', '1.2.0']),
    );
    expect(screen.getAllByTestId('version-description').map((d) => d.textContent)).toEqual([
      'Notes of 1.3.0-beta.1',
      'Notes of 1.2.0',
    ]);
    expect(screen.queryByTestId('version-notes')).toBeNull();
    const [newest] = screen.getAllByTestId('version-card');
    expect(
      within(newest)
        .getAllByTestId('version-badge')
        .map((b) => b.textContent),
    ).toEqual(['Latest', 'Pre-release (Beta)']);
    const asked = api.calls('GET /api/products/server/versions').find((r) => r.query.get('since') !== null)!;
    expect(Object.fromEntries(asked.query)).toMatchObject({ customerId: '7', since: '1.1.0', pageOffset: '0' });
    expect(screen.getByRole('link', { name: 'Back to Acme' }).getAttribute('href')).toBe(
      '/en/accounts/7?versions-product=server',
    );
  });

  it('says nothing changed since the newest, and opens the page of another version', async () => {
    open('/en/accounts/7/changes/server/1.3.0-beta.1');
    expect((await screen.findByTestId('changes-none')).textContent).toBe(
      '1.3.0-beta.1 is the newest version this licence allows: nothing has changed since.',
    );
    const select = (await screen.findByLabelText('The version I run')) as HTMLSelectElement;
    await waitFor(() => expect(select.options.length).toBe(4));
    expect(select.value).toBe('1.3.0-beta.1');
    fireEvent.change(select, { target: { value: '1.0.0' } });
    fireEvent.click(screen.getByRole('button', { name: 'See what changed' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Graph Server: what changed since 1.0.0' }),
    ).toBeTruthy();
    await waitFor(() => expect(screen.getAllByTestId('version-semver')).toHaveLength(3));
  });

  it('is not found for an address that names no version', async () => {
    open('/en/accounts/7/changes/server/not-a-version');
    expect(await screen.findByTestId('not-found-page')).toBeTruthy();
  });

  it('is not found for a product the customer holds no licence of', async () => {
    open('/en/accounts/7/changes/viewer/1.0.0');
    expect(await screen.findByTestId('not-found-page')).toBeTruthy();
  });

  it('speaks French', async () => {
    open('/fr/accounts/7/changes/server/1.2.0');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Graph Server : ce qui a changé depuis 1.2.0' }),
    ).toBeTruthy();
    await waitFor(() =>
      expect(screen.getAllByTestId('version-semver').map((h) => h.textContent)).toEqual(['1.3.0-beta.1']),
    );
  });
});
