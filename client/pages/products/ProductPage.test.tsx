// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Product, Version } from '../../../common/api/catalogue';
import type { UserType } from '../../../common/roles';
import { toastHistory } from '../../components/notify';
import { productCan, profileCan, versionCan } from '../../test/abilities';
import { apiError, fakeApi } from '../../test/fake-api';
import { adminProfile, renderPage } from '../../test/render';
import { ProductPage } from './ProductPage';

/** The versions the fake API holds; each answer adds the `can` the server computes for the caller. */
type StoredVersion = Omit<Version, 'can'>;
let versions: StoredVersion[];
const version = (id: number, semVer: string, props: Partial<StoredVersion> = {}): StoredVersion => ({
  id,
  productKey: 'server',
  productName: 'Graph Server',
  title: `Release ${semVer}`,
  type: 'stable',
  semVer,
  description: '- fixes',
  descriptionHtml: '<ul>\n<li>fixes</li>\n</ul>\n',
  releaseDate: '2026-10-01',
  published: true,
  artifacts: [],
  latestFor: [],
  ...props,
});

interface OpenOptions {
  /** what the answers say the caller may do, instead of what the role may (to show the page follows `can`) */
  productCan?: Product['can'];
  versionCan?: (stored: StoredVersion) => Version['can'];
}

function open(
  role: 'admin' | 'productManager' | 'supportEngineer' = 'productManager',
  key = 'server',
  options: OpenOptions = {},
) {
  const type: UserType = role;
  const withCan = (stored: StoredVersion): Version => ({
    ...stored,
    can: options.versionCan?.(stored) ?? versionCan(type, stored),
  });
  const api = fakeApi({
    'GET /api/products/server': () => ({
      status: 200,
      body: {
        key: 'server',
        name: 'Graph Server',
        description: 'The database',
        customizationType: 'none',
        isSaas: false,
        can: options.productCan ?? productCan(type),
      } satisfies Product,
    }),
    'GET /api/products/gone': () => apiError(404, 'not_found', 'Product not found'),
    'GET /api/products/server/versions': (request) => {
      const offset = Number(request.query.get('pageOffset') ?? 0);
      const data = versions.slice(offset, offset + 10).map(withCan);
      return { status: 200, body: { data, offset, total: versions.length, totalCapped: false } };
    },
    'GET /api/products/server/tokens': () => ({ status: 200, body: { data: [] } }),
    'PATCH /api/versions/2': (request) => {
      const body = request.body as Partial<Version>;
      const patched = body.published
        ? { ...versions[1], published: true, releaseDate: '2026-11-23' }
        : { ...versions[1], ...body };
      versions = versions.map((v) => (v.id === 2 ? patched : v));
      return { status: 200, body: withCan(patched) };
    },
    'PATCH /api/versions/1': (request) => {
      versions = versions.map((v) => (v.id === 1 ? { ...v, ...(request.body as object) } : v));
      return { status: 200, body: withCan(versions[0]) };
    },
  });
  renderPage(<ProductPage />, {
    path: `/en/products/${key}`,
    route: '/:locale/products/:key',
    profile: { ...adminProfile, type: role, yourRole: role, can: profileCan(role, role) },
  });
  return api;
}

const rowOf = async (semVer: string) =>
  (await screen.findAllByTestId('version-row')).find((row) => row.dataset.semver === semVer) as HTMLElement;

beforeEach(() => {
  versions = [
    version(1, '1.10.0', { latestFor: ['alpha', 'beta', 'stable'] }),
    version(2, '1.9.1-beta.1', { type: 'beta', published: false, releaseDate: null }),
    ...Array.from({ length: 10 }, (_, i) => version(10 + i, `1.${8 - Math.floor(i / 5)}.${i}`)),
  ];
  toastHistory.clear();
});
afterEach(() => vi.unstubAllGlobals());

describe('ProductPage', () => {
  it('shows the product, its versions a page of 10 at a time, the setup icon for admins only', async () => {
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Graph Server' })).toBeTruthy();
    expect(screen.getByText('The database')).toBeTruthy();
    expect(screen.queryByTestId('product-edit')).toBeNull();
    const rows = await screen.findAllByTestId('version-row');
    expect(rows).toHaveLength(10);
    expect(Array.from(rows[0].querySelectorAll('td')).map((td) => td.textContent)).toEqual([
      '1.10.0 Release 1.10.0',
      'StableLatest for alpha, beta, stable',
      '2026-10-01',
      'Edit',
    ]);
    expect(within(rows[1]).getByText('Unpublished')).toBeTruthy();
    expect(within(rows[1]).queryByTestId('version-latest')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /next/i }));
    await waitFor(() => expect(screen.getAllByTestId('version-row')).toHaveLength(2));
  });

  it("links the product's download analytics for the roles that may read them", async () => {
    open('productManager');
    const link = await screen.findByRole('link', { name: 'Download analytics' });
    expect(link.getAttribute('href')).toBe('/en/analytics?product=server');
    cleanup();
    open('supportEngineer');
    expect(await screen.findByRole('heading', { level: 1, name: 'Graph Server' })).toBeTruthy();
    expect(screen.queryByTestId('product-analytics')).toBeNull();
  });

  it('shows the setup icon to an admin', async () => {
    open('admin');
    expect(await screen.findByTestId('product-edit')).toBeTruthy();
  });

  it("follows the answers' can, not the role: no setup icon, no Add, no publication the server would refuse", async () => {
    open('admin', 'server', {
      productCan: { edit: false, manageVersions: false },
      versionCan: () => ({ edit: false, publish: false, upload: false, deleteArtifacts: false }),
    });
    const rows = await screen.findAllByTestId('version-row');
    expect(screen.queryByTestId('product-edit')).toBeNull();
    expect(screen.queryByTestId('version-add')).toBeNull();
    expect(screen.queryByTestId('version-edit')).toBeNull();
    expect(screen.queryByTestId('version-publish')).toBeNull();
    expect(rows[0].querySelectorAll('td')).toHaveLength(3);
  });

  it("offers a version's publication where its can says so, and its edit where that says so", async () => {
    open('productManager', 'server', {
      versionCan: (stored) => ({
        edit: stored.id === 1,
        publish: stored.id === 1,
        upload: false,
        deleteArtifacts: false,
      }),
    });
    // the first version is published, yet its answer offers the publication: the page shows what it is told
    expect(within(await rowOf('1.10.0')).getByTestId('version-publish')).toBeTruthy();
    expect(within(await rowOf('1.9.1-beta.1')).queryByTestId('version-publish')).toBeNull();
    expect(within(await rowOf('1.9.1-beta.1')).queryByTestId('version-edit')).toBeNull();
    expect(screen.getByTestId('version-add')).toBeTruthy();
  });

  it('says with a heading that the product could not be loaded, and its retry loads it', async () => {
    let fail = true;
    const api = fakeApi({
      'GET /api/products/server': () =>
        fail
          ? apiError(503, 'unavailable', 'Try later')
          : {
              status: 200,
              body: {
                key: 'server',
                name: 'Graph Server',
                description: 'The database',
                customizationType: 'none',
                isSaas: false,
                can: productCan('productManager'),
              } satisfies Product,
            },
      'GET /api/products/server/versions': () => ({
        status: 200,
        body: { data: [], offset: 0, total: 0, totalCapped: false },
      }),
      'GET /api/products/server/tokens': () => ({ status: 200, body: { data: [] } }),
    });
    renderPage(<ProductPage />, { path: '/en/products/server', route: '/:locale/products/:key' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Error 503' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('Try later');
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Graph Server' })).toBeTruthy();
    expect(api.calls('GET /api/products/server')).toHaveLength(2);
  });

  it('answers an unknown product with the not-found view', async () => {
    open('productManager', 'gone');
    expect(await screen.findByTestId('product-not-found')).toBeTruthy();
  });

  it('publishes only after confirmation, then reloads the list', async () => {
    const api = open();
    fireEvent.click(within(await rowOf('1.9.1-beta.1')).getByTestId('version-publish'));
    const confirm = await screen.findByTestId('version-publish-confirm');
    expect(confirm.textContent).toContain('Publishing is final');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByTestId('version-publish-confirm')).toBeNull());
    expect(api.calls('PATCH /api/versions/2')).toHaveLength(0);

    fireEvent.click(within(await rowOf('1.9.1-beta.1')).getByTestId('version-publish'));
    fireEvent.click(await screen.findByTestId('version-publish-yes'));
    await waitFor(async () => expect(within(await rowOf('1.9.1-beta.1')).queryByTestId('version-publish')).toBeNull());
    expect(api.calls('PATCH /api/versions/2')[0].body).toEqual({ published: true });
    expect(within(await rowOf('1.9.1-beta.1')).getByText('2026-11-23')).toBeTruthy();
  });

  it('locks title and version number of a published version and sends only type and description', async () => {
    const api = open();
    fireEvent.click(within(await rowOf('1.10.0')).getByTestId('version-edit'));
    const dialog = await screen.findByRole('dialog');
    expect((within(dialog).getByLabelText(/^Title/) as HTMLInputElement).disabled).toBe(true);
    expect((within(dialog).getByLabelText(/^Version number/) as HTMLInputElement).disabled).toBe(true);
    expect(within(dialog).getByTestId('version-description-preview').innerHTML).toContain('<li>fixes</li>');
    fireEvent.change(within(dialog).getByLabelText(/^Release notes/), { target: { value: 'New notes' } });
    fireEvent.click(within(dialog).getByTestId('version-submit'));
    await waitFor(() => expect(api.calls('PATCH /api/versions/1')).toHaveLength(1));
    expect(api.calls('PATCH /api/versions/1')[0].body).toEqual({ type: 'stable', description: 'New notes' });
  });

  it('says what comes next for a product without versions: add one, or wait for a product manager', async () => {
    versions = [];
    open();
    const empty = await screen.findByTestId('versions-empty');
    expect(empty.textContent).toContain('No version of this product yet.');
    expect(empty.textContent).toContain('Add its first version with “Add a version”');
    cleanup();
    open('supportEngineer');
    expect((await screen.findByTestId('versions-empty')).textContent).toContain(
      'Its versions appear here once a product manager adds them.',
    );
  });
});
