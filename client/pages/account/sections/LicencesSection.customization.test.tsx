// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Customer } from '../../../../common/api/customers';
import type { Customization } from '../../../../common/api/customizations';
import type { Licence } from '../../../../common/api/licences';
import type { Role } from '../../../../common/roles';
import { toastHistory } from '../../../components/notify';
import { customerCan, customizationCan, licenceCan } from '../../../test/abilities';
import { type FakeHandler, fakeApi } from '../../../test/fake-api';
import { renderPage } from '../../../test/render';
import { LicencesSection } from './LicencesSection';

const customer = (yourRole: Role): Customer => ({
  id: 7,
  name: 'Acme Analytics',
  customerKey: 'ACME000001',
  selfService: false,
  paymentStatus: null,
  accountExecutive: null,
  billingEmail: null,
  yourRole,
  yourMembershipId: 70,
  yourSettings: null,
  can: customerCan(yourRole),
});

type LicenceRow = Omit<Licence, 'can'>;
const licence = (id: number, props: Partial<LicenceRow>): LicenceRow => ({
  id,
  customerId: 7,
  productKey: `product-${id}`,
  productName: `Product ${id}`,
  isSaas: false,
  customizationType: 'none',
  hasEntityResolution: false,
  status: 'valid',
  startDate: '2026-01-01',
  endDate: '2027-03-05',
  accessLevel: 'stable',
  data: {},
  downloadSecret: null,
  customizationId: null,
  latestDownload: null,
  latestFilesReleased: null,
  ...props,
});

const licences = [
  licence(1, { productKey: 'graph-server', productName: 'Graph Server', customizationType: 'lke', customizationId: 5 }),
  licence(2, { productKey: 'graph-toolkit', productName: 'Graph Toolkit', customizationType: 'ogma' }),
  licence(3, { productKey: 'graph-cloud', productName: 'Graph Cloud', isSaas: true }),
];

/** The stored customization; each answer adds the `can` the server computes for the caller's role. */
const customization: Omit<Customization, 'can'> = {
  id: 5,
  customerId: 7,
  customerName: 'Acme Analytics',
  productKey: 'graph-server',
  productName: 'Graph Server',
  customizationType: 'lke',
  versionType: 'stable',
  customConfig: { branding: { applicationName: 'Acme Graph' }, defaultLocale: 'en' },
  enabled: true,
  updatedAt: '2026-11-20T10:00:00.000Z',
};

function open(role: Role, routes: Record<string, FakeHandler> = {}) {
  let listed = 0;
  const api = fakeApi({
    'GET /api/customers/7/licenses': () => {
      listed += 1;
      // as the server sends them to the role: each with what it may do with that licence
      const data = licences.map((row) => ({ ...row, can: licenceCan(role, row.customizationType) }));
      return { status: 200, body: { data, offset: 0, total: licences.length, totalCapped: false } };
    },
    'GET /api/customizations/5': () => ({
      status: 200,
      body: { ...customization, can: customizationCan(role, customization.customizationType) },
    }),
    ...routes,
  });
  renderPage(<LicencesSection customer={customer(role)} />, {
    path: '/en/accounts/7',
    route: '/:locale/accounts/:id',
  });
  return { api, listed: () => listed };
}

const rowOf = async (product: string) => (await screen.findByText(product)).closest('tr') as HTMLElement;

afterEach(() => {
  vi.unstubAllGlobals();
  toastHistory.clear();
});

describe('LicencesSection: the customization action', () => {
  it.each(['admin', 'productManager', 'accountExecutive'] as const)(
    'is offered to %s on licences of products with a customization type, not on the others',
    async (role) => {
      open(role);
      expect(
        within(await rowOf('Graph Server')).getByRole('button', { name: 'Customization of Graph Server' }),
      ).toBeTruthy();
      expect(within(await rowOf('Graph Toolkit')).getByTestId('licence-customize').textContent).toBe('Customization');
      expect(within(await rowOf('Graph Cloud (SaaS)')).queryByTestId('licence-customize')).toBeNull();
    },
  );

  it.each(['supportEngineer', 'businessOwner', 'technicalContact'] as const)('is not offered to %s', async (role) => {
    open(role);
    await rowOf('Graph Server');
    expect(screen.queryByTestId('licence-customize')).toBeNull();
  });

  it('opens the licence’s customization under the customer’s name, then reloads the list once saved', async () => {
    const { api, listed } = open('productManager', {
      'PATCH /api/customizations/5': ({ body }) => ({
        status: 200,
        body: { ...customization, ...(body as Partial<Customization>), can: customizationCan('productManager') },
      }),
    });
    fireEvent.click(within(await rowOf('Graph Server')).getByRole('button', { name: 'Customization of Graph Server' }));
    const dialog = await screen.findByRole('dialog', { name: /Acme Analytics\s*Graph Server/ });
    await within(dialog).findByRole('textbox', { name: 'Configuration (JSON)' }, { timeout: 5000 });
    expect(api.calls('GET /api/customizations/5')).toHaveLength(1);
    fireEvent.change(within(dialog).getByLabelText('Version type'), { target: { value: 'beta' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls('PATCH /api/customizations/5')).toHaveLength(1));
    expect(api.calls('PATCH /api/customizations/5')[0].body).toMatchObject({ versionType: 'beta' });
    await waitFor(() => expect(listed()).toBe(2));
    expect(toastHistory.getSnapshot()[0].message).toBe('The customization of Graph Server was updated');
  });

  it('creates the customization of a licence that has none', async () => {
    const { api } = open('accountExecutive');
    fireEvent.click(
      within(await rowOf('Graph Toolkit')).getByRole('button', { name: 'Customization of Graph Toolkit' }),
    );
    const dialog = await screen.findByRole('dialog', { name: /Acme Analytics\s*Graph Toolkit/ });
    await within(dialog).findByRole('textbox', { name: 'Configuration (JSON)' }, { timeout: 5000 });
    expect((within(dialog).getByTestId('customization-validate') as HTMLButtonElement).disabled).toBe(true);
    expect(api.calls('GET /api/customizations/5')).toHaveLength(0);
  });
});
