// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Customer } from '../../../../common/api/customers';
import type { LicensableProduct, Licence } from '../../../../common/api/licences';
import { addMonths, localToday } from '../../../../common/licence-status';
import type { Role, UserType } from '../../../../common/roles';
import { toastHistory } from '../../../components/notify';
import { customerCan, licenceCan, profileCan } from '../../../test/abilities';
import { apiError, type FakeHandler, fakeApi } from '../../../test/fake-api';
import { adminProfile, renderPage } from '../../../test/render';
import { useLocation } from 'react-router';
import { LicencesSection } from './LicencesSection';

const customer = (yourRole: Role): Customer => ({
  id: 7,
  name: 'Acme',
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
const licence = (id: number, props: Partial<LicenceRow> = {}): LicenceRow => ({
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
  data: { licences: 5 },
  downloadSecret: `secret-${id}`,
  customizationId: null,
  latestDownload: '2026-11-02T10:00:00.000Z',
  latestFilesReleased: null,
  ...props,
});

const licences = [
  licence(1, { productName: 'Graph Studio', isSaas: true, hasEntityResolution: true }),
  licence(2, { productName: 'Graph Server', status: 'grace', endDate: '2026-11-10', latestDownload: null }),
  licence(3, { productName: 'Graph Old', status: 'invalid', endDate: '2025-01-31', accessLevel: 'beta' }),
];
/** A licence as the server sends it to a user holding `role` in the customer. */
const licenceFor = (role: Role, row: LicenceRow): Licence => ({ ...row, can: licenceCan(role, row.customizationType) });
const licencesFor = (role: Role, rows: LicenceRow[]): Licence[] => rows.map((row) => licenceFor(role, row));

const products: LicensableProduct[] = [
  { key: 'viewer', name: 'Graph Viewer', isSaas: false, customizationType: 'none' },
  { key: 'cloud', name: 'Graph Cloud', isSaas: true, customizationType: 'lke' },
];

/** The signed-in user of that role (its type's, a client's for the customer's contacts). */
const profileOf = (role: Role) => {
  const type: UserType = ['businessOwner', 'technicalContact', 'endUser'].includes(role)
    ? 'client'
    : (role as UserType);
  return { ...adminProfile, type, yourRole: role, can: profileCan(type, role) };
};

/** The API the section reads, as the customer's page would find it for `role`. */
function customerApi(role: Role, routes: Record<string, FakeHandler> = {}) {
  return fakeApi({
    'GET /api/customers/7': () => ({ status: 200, body: customer(role) }),
    'GET /api/customers/7/licenses': () => ({
      status: 200,
      body: { data: licencesFor(role, licences), offset: 0, total: 3, totalCapped: false },
    }),
    'GET /api/customers/7/licensable-products': () => ({ status: 200, body: { data: products } }),
    ...routes,
  });
}

function open(role: Role, routes: Record<string, FakeHandler> = {}, path = '/en/accounts/7') {
  const api = customerApi(role, routes);
  renderPage(
    <>
      <LicencesSection customer={customer(role)} />
      <Address />
    </>,
    { path, route: '/:locale/accounts/:id', profile: profileOf(role) },
  );
  return api;
}

/** The address's query, to see what the section leaves in it. */
function Address() {
  return <output data-testid="address">{useLocation().search}</output>;
}

const rowOf = async (product: string) => (await screen.findByText(product)).closest('tr') as HTMLElement;
const headers = () => screen.getAllByRole('columnheader').map((th) => th.textContent);
const lastNotification = () => toastHistory.getSnapshot()[0];

afterEach(() => {
  vi.unstubAllGlobals();
  toastHistory.clear();
});

describe('LicencesSection: the table', () => {
  it('shows staff every column: product suffixes, DD MMM YYYY dates with the status, latest download, access level', async () => {
    const api = open('admin');
    const studio = await rowOf('Graph Studio (SaaS) (with Entity resolution)');
    expect(headers()).toEqual([
      'ID',
      'Product',
      'Valid until',
      'Latest download',
      'Access level',
      'Download',
      'Actions',
    ]);
    expect(within(studio).getByTestId('licence-end-date').textContent).toBe('05 Mar 2027');
    expect(within(studio).getByTestId('licence-status').textContent).toBe('Valid');
    expect(within(studio).getByTestId('licence-latest-download').textContent).toBe('02 Nov 2026');
    const server = await rowOf('Graph Server');
    expect(within(server).getByTestId('licence-latest-download').textContent).toBe('Never');
    // grace is shown in the warning colour, an expired licence in red
    expect(within(server).getByTestId('licence-status').textContent).toBe('Expired: grace period');
    const old = await rowOf('Graph Old');
    expect(within(old).getByTestId('licence-access-level').textContent).toBe('beta');
    expect(screen.getByTestId('licence-add')).toBeTruthy();
    expect(api.calls('GET /api/customers/7/licenses')[0].query.get('pageOffset')).toBe('0');
  });

  it('colours statuses as spec 4 says: valid green, grace as warning (orange), invalid red', async () => {
    open('admin');
    await rowOf('Graph Old');
    const colour = (status: string) =>
      (document.querySelector(`[data-status="${status}"]`) as HTMLElement).style.getPropertyValue('--badge-color');
    expect(colour('valid')).toContain('green');
    expect(colour('grace')).toContain('orange');
    expect(colour('invalid')).toContain('red');
  });

  it('shows a technical contact the download cell but not the staff columns nor the actions', async () => {
    open('technicalContact');
    await rowOf('Graph Server');
    expect(headers()).toEqual(['ID', 'Product', 'Valid until', 'Download']);
    expect(screen.queryByTestId('licence-add')).toBeNull();
    expect(screen.queryByTestId('licence-renew')).toBeNull();
  });

  it('shows a product manager the actions but no download cell', async () => {
    open('productManager');
    await rowOf('Graph Server');
    expect(headers()).toEqual(['ID', 'Product', 'Valid until', 'Latest download', 'Access level', 'Actions']);
    expect(screen.getAllByTestId('licence-renew')).toHaveLength(3);
  });

  it('speaks French: months, suffixes and statuses', async () => {
    open('admin', {}, '/fr/accounts/7');
    const studio = await rowOf('Graph Studio (SaaS) (avec résolution d’entités)');
    expect(within(studio).getByTestId('licence-end-date').textContent).toBe('05 mars 2027');
    expect(within(await rowOf('Graph Server')).getByTestId('licence-status').textContent).toBe(
      'Expirée : période de grâce',
    );
  });

  it('says when the customer has no licence', async () => {
    open('admin', {
      'GET /api/customers/7/licenses': () => ({
        status: 200,
        body: { data: [], offset: 0, total: 0, totalCapped: false },
      }),
    });
    expect((await screen.findByTestId('licences-empty')).textContent).toBe('This customer has no licence yet.');
    expect(screen.queryByTestId('licences-table')).toBeNull();
  });

  it('says why the list could not be loaded, and its retry loads it again', async () => {
    let calls = 0;
    open('admin', {
      'GET /api/customers/7/licenses': () =>
        calls++ === 0
          ? apiError(500, 'internal_error', 'boom')
          : { status: 200, body: { data: licencesFor('admin', licences), offset: 0, total: 3, totalCapped: false } },
    });
    const alert = await screen.findByTestId('licences-load-error');
    expect(alert.textContent).toContain('The licences could not be loaded: An error has occurred...');
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await rowOf('Graph Server')).toBeTruthy();
  });

  it('pages through more than ten licences', async () => {
    const many = licencesFor(
      'admin',
      Array.from({ length: 12 }, (_, i) => licence(i + 1)),
    );
    const api = open('admin', {
      'GET /api/customers/7/licenses': ({ query }) => {
        const offset = Number(query.get('pageOffset'));
        return { status: 200, body: { data: many.slice(offset, offset + 10), offset, total: 12, totalCapped: false } };
      },
    });
    await rowOf('Product 10');
    expect(screen.getByText('Page 1 of 2')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await rowOf('Product 12');
    expect(screen.queryByText('Product 1')).toBeNull();
    expect(api.calls('GET /api/customers/7/licenses').map((c) => c.query.get('pageOffset'))).toEqual(['0', '10']);
  });

  it('keeps its page in the address, so Back and a shared link show the same page', async () => {
    const many = licencesFor(
      'admin',
      Array.from({ length: 12 }, (_, i) => licence(i + 1)),
    );
    const api = open(
      'admin',
      {
        'GET /api/customers/7/licenses': ({ query }) => {
          const offset = Number(query.get('pageOffset'));
          return {
            status: 200,
            body: { data: many.slice(offset, offset + 10), offset, total: 12, totalCapped: false },
          };
        },
      },
      '/en/accounts/7?licences-page=2',
    );
    await rowOf('Product 12');
    expect(api.calls('GET /api/customers/7/licenses')[0].query.get('pageOffset')).toBe('10');
    fireEvent.click(screen.getByRole('button', { name: 'Previous page' }));
    await rowOf('Product 1');
    expect(screen.getByTestId('address').textContent).toBe('');
  });
});

describe('LicencesSection: download analytics', () => {
  it('links the download analytics for the roles that may see them, in both languages', async () => {
    for (const role of ['admin', 'productManager'] as const) {
      open(role);
      const link = await screen.findByRole('link', { name: 'Download analytics' });
      expect(link.getAttribute('href')).toBe('/en/analytics');
      cleanup();
    }
    open('admin', {}, '/fr/accounts/7');
    const french = await screen.findByRole('link', { name: 'Statistiques de téléchargement' });
    expect(french.getAttribute('href')).toBe('/fr/analytics');
    cleanup();
    for (const role of ['accountExecutive', 'supportEngineer', 'businessOwner', 'technicalContact'] as const) {
      open(role);
      await rowOf('Graph Server');
      expect(screen.queryByTestId('licences-analytics'), role).toBeNull();
      cleanup();
    }
  });
});

describe('LicencesSection: downloads', () => {
  it('links the licence file of the product for this customer', async () => {
    open('technicalContact');
    const link = within(await rowOf('Graph Server')).getByTestId('licence-download');
    expect(link.getAttribute('href')).toBe('/api/download/license/product-2?customerId=7');
  });

  it('copies the download key of a licence in force, grace included', async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    open('technicalContact');
    fireEvent.click(within(await rowOf('Graph Server')).getByTestId('licence-copy-key'));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('secret-2'));
    expect(lastNotification()).toMatchObject({ status: 'success', message: 'The download key was copied.' });
  });

  it('offers no licence file for an expired licence, saying why in the cell, and answers spec 8 on copying its key', async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    open('businessOwner');
    const old = await rowOf('Graph Old');
    fireEvent.click(within(old).getByTestId('licence-copy-key'));
    expect(lastNotification()).toMatchObject({
      status: 'error',
      message: 'Your license is expired, please contact your account manager',
    });
    expect(writeText).not.toHaveBeenCalled();
    // no control that could only fail: the reason stands as text where the file's link would be
    expect(within(old).queryByTestId('licence-download')).toBeNull();
    expect(within(old).queryByRole('link', { name: /Licence file/ })).toBeNull();
    expect(within(old).queryByRole('button', { name: /Licence file/ })).toBeNull();
    expect(within(old).getByTestId('licence-file-unavailable').textContent).toBe(
      'No licence file: the licence has expired',
    );
    // a licence in its grace period still has its file
    const grace = await rowOf('Graph Server');
    expect(within(grace).getByTestId('licence-download').getAttribute('href')).toBe(
      '/api/download/license/product-2?customerId=7',
    );
    expect(within(grace).queryByTestId('licence-file-unavailable')).toBeNull();
  });

  it('says in French why an expired licence has no file', async () => {
    open('businessOwner', {}, '/fr/accounts/7');
    const old = (await screen.findByText('Graph Old')).closest('tr') as HTMLElement;
    expect(within(old).getByTestId('licence-file-unavailable').textContent).toBe(
      'Pas de fichier de licence : la licence a expiré',
    );
  });

  it('says "Clipboard not available" where there is no clipboard', async () => {
    vi.stubGlobal('navigator', { ...navigator, clipboard: undefined });
    open('technicalContact');
    fireEvent.click(within(await rowOf('Graph Server')).getByTestId('licence-copy-key'));
    await waitFor(() =>
      expect(lastNotification()).toMatchObject({ status: 'error', message: 'Clipboard not available' }),
    );
  });
});

describe('LicencesSection: adding and renewing', () => {
  const today = localToday();

  it('offers no licence form to a customer holding a licence of every product, and says why', async () => {
    open('admin', { 'GET /api/customers/7/licensable-products': () => ({ status: 200, body: { data: [] } }) });
    fireEvent.click(await screen.findByTestId('licence-add'));
    const dialog = await screen.findByRole('dialog', { name: 'Add a licence' });
    expect(
      await within(dialog).findByText(
        'This customer already holds a licence of every product: renew one of them instead.',
      ),
    ).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Add licence' })).toBeNull();
    expect(within(dialog).queryByLabelText('Product')).toBeNull();
    // the modal's own close button and the one under the message
    expect(within(dialog).getAllByRole('button', { name: 'Close' })).toHaveLength(2);
  });

  it('adds a licence: first product preselected, stable, today for a year; the data as a JSON object', async () => {
    let listed = 0;
    const api = open('accountExecutive', {
      'GET /api/customers/7/licenses': () => {
        listed += 1;
        return {
          status: 200,
          body: { data: licencesFor('accountExecutive', licences), offset: 0, total: 3, totalCapped: false },
        };
      },
      'POST /api/customers/7/licenses': () => ({ status: 201, body: licenceFor('accountExecutive', licence(9)) }),
    });
    fireEvent.click(await screen.findByTestId('licence-add'));
    const dialog = await screen.findByRole('dialog', { name: 'Add a licence' });
    await waitFor(() => expect((within(dialog).getByLabelText('Product') as HTMLSelectElement).value).toBe('viewer'));
    expect(
      Array.from((within(dialog).getByLabelText('Product') as HTMLSelectElement).options).map((o) => o.textContent),
    ).toEqual(['Graph Viewer', 'Graph Cloud (SaaS)']);
    expect((within(dialog).getByLabelText('Access level') as HTMLSelectElement).value).toBe('stable');

    // the data starts as an empty object; it is required, must be JSON, and a JSON object
    const editor = await within(dialog).findByRole('textbox', { name: 'Licence data (JSON)' }, { timeout: 5000 });
    await waitFor(() => expect((editor as HTMLTextAreaElement).value).toBe('{}'));
    const type = (text: string) => fireEvent.input(editor, { target: { value: text } });
    type('');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add licence' }));
    await waitFor(() => expect(editor.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(editor.getAttribute('aria-describedby')!)?.textContent).toBe(
      'This field is required.',
    );
    type('{"licences": 5');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add licence' }));
    await waitFor(() =>
      expect(document.getElementById(editor.getAttribute('aria-describedby')!)?.textContent).toBe(
        'The data must be valid JSON.',
      ),
    );
    type('[1, 2]');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add licence' }));
    await waitFor(() =>
      expect(document.getElementById(editor.getAttribute('aria-describedby')!)?.textContent).toBe(
        'The data must be a JSON object, for example {"licences": 5}.',
      ),
    );
    expect(api.calls('POST /api/customers/7/licenses')).toHaveLength(0);

    type('{"licences": 5}');
    fireEvent.click(within(dialog).getByLabelText('with Entity resolution'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add licence' }));
    await waitFor(() => expect(api.calls('POST /api/customers/7/licenses')).toHaveLength(1));
    expect(api.calls('POST /api/customers/7/licenses')[0].body).toEqual({
      productKey: 'viewer',
      accessLevel: 'stable',
      startDate: today,
      endDate: addMonths(today, 12),
      data: { licences: 5 },
      hasEntityResolution: true,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(lastNotification()).toMatchObject({ status: 'success', message: 'The licence was added.' });
    await waitFor(() => expect(listed).toBeGreaterThan(1));
  });

  it('says "The license could not be created: {error}" and keeps the form open', async () => {
    open('admin', {
      'POST /api/customers/7/licenses': () =>
        apiError(409, 'conflict', 'This customer already holds a licence of this product'),
    });
    fireEvent.click(await screen.findByTestId('licence-add'));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect((within(dialog).getByLabelText('Product') as HTMLSelectElement).value).toBe('viewer'));
    const editor = await within(dialog).findByRole('textbox', { name: 'Licence data (JSON)' }, { timeout: 5000 });
    fireEvent.input(editor, { target: { value: '{}' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add licence' }));
    expect((await screen.findByTestId('licence-modal-feedback')).textContent).toBe(
      'The license could not be created: This customer already holds a licence of this product',
    );
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('opens a renewal on the licence as it is, and refuses an end date in the past before sending', async () => {
    const api = open('admin', {
      'PATCH /api/licenses/3': ({ body }) => ({
        status: 200,
        body: { ...licenceFor('admin', licences[2]), ...(body as object) },
      }),
    });
    fireEvent.click(within(await rowOf('Graph Old')).getByTestId('licence-renew'));
    const dialog = await screen.findByRole('dialog', { name: 'Renew or edit a licence' });
    expect(within(dialog).queryByLabelText('Product')).toBeNull();
    expect(within(dialog).getByTestId('licence-renew-subject').textContent).toContain('Licence 3: Graph Old');
    // an end date in the past is refused before anything is sent
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('The end date must be in the future.')).toBeTruthy();
    expect(api.calls('PATCH /api/licenses/3')).toHaveLength(0);
    const editor = await within(dialog).findByRole('textbox', { name: 'Licence data (JSON)' }, { timeout: 5000 });
    expect((editor as HTMLTextAreaElement).value).toContain('"licences": 5');
    expect((within(dialog).getByLabelText('Access level') as HTMLSelectElement).value).toBe('beta');
  });

  it('says "The license could not be updated: {error}"', async () => {
    const future = addMonths(localToday(), 6);
    open('admin', {
      'GET /api/customers/7/licenses': () => ({
        status: 200,
        body: {
          data: licencesFor('admin', [licence(4, { productName: 'Graph Next', endDate: future })]),
          offset: 0,
          total: 1,
          totalCapped: false,
        },
      }),
      'PATCH /api/licenses/4': () => apiError(404, 'not_found', 'Not found'),
    });
    fireEvent.click(within(await rowOf('Graph Next')).getByTestId('licence-renew'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Access level'), { target: { value: 'alpha' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect((await screen.findByTestId('licence-modal-feedback')).textContent).toBe(
      'The license could not be updated: This item could not be found.',
    );
  });

  it('sends the renewal with the changed access level and the data as an object', async () => {
    const future = addMonths(localToday(), 6);
    const api = open('admin', {
      'GET /api/customers/7/licenses': () => ({
        status: 200,
        body: {
          data: licencesFor('admin', [licence(4, { productName: 'Graph Next', endDate: future })]),
          offset: 0,
          total: 1,
          totalCapped: false,
        },
      }),
      'PATCH /api/licenses/4': ({ body }) => ({
        status: 200,
        body: { ...licenceFor('admin', licence(4)), ...(body as object) },
      }),
    });
    fireEvent.click(within(await rowOf('Graph Next')).getByTestId('licence-renew'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Access level'), { target: { value: 'alpha' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls('PATCH /api/licenses/4')).toHaveLength(1));
    expect(api.calls('PATCH /api/licenses/4')[0].body).toEqual({
      accessLevel: 'alpha',
      endDate: future,
      data: { licences: 5 },
      hasEntityResolution: false,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(lastNotification()).toMatchObject({ status: 'success', message: 'The licence was updated.' });
  });

  it('replaces the download key after a confirmation', async () => {
    const api = open('admin', {
      'POST /api/licenses/2/secret': () => ({
        status: 200,
        body: { ...licenceFor('admin', licences[1]), downloadSecret: 'new' },
      }),
    });
    fireEvent.click(within(await rowOf('Graph Server')).getByTestId('licence-renew'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Replace download key' }));
    const confirm = within(dialog).getByTestId('licence-replace-key-confirm');
    expect(api.calls('POST /api/licenses/2/secret')).toHaveLength(0);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Replace the key' }));
    await waitFor(() => expect(api.calls('POST /api/licenses/2/secret')).toHaveLength(1));
    await waitFor(() =>
      expect(lastNotification()).toMatchObject({ status: 'success', message: 'The download key was replaced.' }),
    );
  });

  it('opens the renewal named in the address, then takes it out of the address', async () => {
    const api = open(
      'accountExecutive',
      {
        'GET /api/licenses/2': () => ({ status: 200, body: licenceFor('accountExecutive', licences[1]) }),
      },
      '/en/accounts/7?renew=2',
    );
    const dialog = await screen.findByRole('dialog', { name: 'Renew or edit a licence' });
    expect(within(dialog).getByTestId('licence-renew-subject').textContent).toContain('Graph Server');
    expect(api.calls('GET /api/licenses/2')).toHaveLength(1);
    expect(screen.getByTestId('address').textContent).toBe('');
  });

  it('does not open a renewal from the address for a role that does not manage licences', async () => {
    const api = open('technicalContact', {}, '/en/accounts/7?renew=2');
    await rowOf('Graph Server');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByTestId('address').textContent).toBe('');
    expect(api.calls('GET /api/licenses/2')).toHaveLength(0);
  });
});

describe('LicenceAccessLevels: the header line of a sales-led customer’s contacts', () => {
  it('names each product with its access level, in the interface’s language', async () => {
    customerApi('businessOwner');
    const { LicenceAccessLevels } = await import('../licences/LicenceAccessLevels');
    renderPage(<LicenceAccessLevels customerId={7} />, { path: '/fr/accounts/7', route: '/:locale/accounts/:id' });
    const levels = await screen.findAllByTestId('licence-access-level');
    expect(levels.map((level) => level.textContent)).toEqual([
      'Graph Studio (SaaS) (avec résolution d’entités) : niveau d’accès stable',
      'Graph Server : niveau d’accès stable',
      'Graph Old : niveau d’accès bêta',
    ]);
  });
});
