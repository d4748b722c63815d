// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Version } from '../../../common/api/catalogue';
import { notificationStore } from '../../components/notify';
import { profileCan } from '../../test/abilities';
import { apiError, fakeApi } from '../../test/fake-api';
import { adminProfile, renderPage } from '../../test/render';
import { ProductPage } from './ProductPage';

let versions: Version[];
const version = (id: number, semVer: string, props: Partial<Version> = {}): Version => ({
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
  ...props,
});

function open(role: 'admin' | 'productManager' | 'supportEngineer' = 'productManager', key = 'server') {
  const api = fakeApi({
    'GET /api/products/server': () => ({
      status: 200,
      body: {
        key: 'server',
        name: 'Graph Server',
        description: 'The database',
        customizationType: 'none',
        isSaas: false,
      },
    }),
    'GET /api/products/gone': () => apiError(404, 'not_found', 'Product not found'),
    'GET /api/products/server/versions': (request) => {
      const offset = Number(request.query.get('pageOffset') ?? 0);
      return {
        status: 200,
        body: { data: versions.slice(offset, offset + 10), offset, total: versions.length, totalCapped: false },
      };
    },
    'GET /api/products/server/tokens': () => ({ status: 200, body: { data: [] } }),
    'PATCH /api/versions/2': (request) => {
      const body = request.body as Partial<Version>;
      const patched = body.published
        ? { ...versions[1], published: true, releaseDate: '2026-11-23' }
        : { ...versions[1], ...body };
      versions = versions.map((v) => (v.id === 2 ? patched : v));
      return { status: 200, body: patched };
    },
    'PATCH /api/versions/1': (request) => {
      versions = versions.map((v) => (v.id === 1 ? { ...v, ...(request.body as object) } : v));
      return { status: 200, body: versions[0] };
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
    version(1, '1.10.0'),
    version(2, '1.9.1-beta.1', { type: 'beta', published: false, releaseDate: null }),
    ...Array.from({ length: 10 }, (_, i) => version(10 + i, `1.${8 - Math.floor(i / 5)}.${i}`)),
  ];
  notificationStore.clear();
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
      'Stable',
      '2026-10-01',
      'Edit',
    ]);
    expect(within(rows[1]).getByText('Unpublished')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /next/i }));
    await waitFor(() => expect(screen.getAllByTestId('version-row')).toHaveLength(2));
  });

  it('shows the setup icon to an admin', async () => {
    open('admin');
    expect(await screen.findByTestId('product-edit')).toBeTruthy();
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
