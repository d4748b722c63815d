// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Product } from '../../../common/api/catalogue';
import { toastHistory } from '../../components/notify';
import { productCan, profileCan } from '../../test/abilities';
import { apiError, fakeApi } from '../../test/fake-api';
import { adminProfile, renderPage } from '../../test/render';
import { ProductsPage } from './ProductsPage';

let products: Product[];
const product = (key: string, name: string): Product => ({
  key,
  name,
  description: `${name} description`,
  customizationType: 'none',
  isSaas: false,
  can: productCan('admin'),
});

function open(options: { role?: 'admin' | 'productManager'; locale?: 'en' | 'fr' } = {}) {
  const api = fakeApi({
    'GET /api/products': () => ({ status: 200, body: { data: products } }),
    'POST /api/products': (request) => {
      const body = request.body as Product;
      if (body.key === 'taken') return apiError(409, 'product_exists', 'A product with this key already exists');
      const created = { ...body, isSaas: false, can: productCan('admin') };
      products = [...products, created].sort((a, b) => a.name.localeCompare(b.name));
      return { status: 201, body: created };
    },
  });
  renderPage(<ProductsPage />, {
    path: `/${options.locale ?? 'en'}/products`,
    route: '/:locale/products',
    profile: {
      ...adminProfile,
      type: options.role ?? 'admin',
      yourRole: options.role ?? 'admin',
      can: profileCan(options.role ?? 'admin', options.role ?? 'admin'),
    },
  });
  return api;
}

beforeEach(() => {
  products = [product('server', 'Graph Server'), product('studio', 'Graph Studio')];
  toastHistory.clear();
});
afterEach(() => vi.unstubAllGlobals());

describe('ProductsPage', () => {
  it('lists the products linking to their pages; no Add button for a product manager', async () => {
    open({ role: 'productManager' });
    const links = await screen.findAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Graph Server', '/en/products/server'],
      ['Graph Studio', '/en/products/studio'],
    ]);
    expect(screen.getByRole('heading', { level: 1, name: 'Products' })).toBeTruthy();
    expect(screen.queryByTestId('product-add')).toBeNull();
  });

  it('lets an admin add a product: the key is checked, the list refreshes, the modal closes, a notice shows', async () => {
    const api = open();
    fireEvent.click(await screen.findByTestId('product-add'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText(/^Key/), { target: { value: 'Not a key' } });
    fireEvent.change(within(dialog).getByLabelText(/^Name/), { target: { value: 'Graph Cloud' } });
    fireEvent.change(within(dialog).getByLabelText(/^Description/), { target: { value: 'Online' } });
    fireEvent.click(within(dialog).getByTestId('product-submit'));
    expect(await within(dialog).findByText(/lower-case letters, digits and dashes/)).toBeTruthy();
    expect(api.calls('POST /api/products')).toHaveLength(0);
    // the key field has the focus, so that a keyboard user fixes it at once
    expect(document.activeElement).toBe(within(dialog).getByLabelText(/^Key/));

    fireEvent.change(within(dialog).getByLabelText(/^Key/), { target: { value: 'cloud' } });
    fireEvent.click(within(dialog).getByTestId('product-submit'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls('POST /api/products')[0].body).toEqual({
      key: 'cloud',
      name: 'Graph Cloud',
      description: 'Online',
      customizationType: 'none',
      isSaas: false,
    });
    expect(await screen.findByRole('link', { name: 'Graph Cloud' })).toBeTruthy();
    expect(toastHistory.getSnapshot()[0]).toMatchObject({ message: 'The product Graph Cloud was created.' });
  });

  it('says why a creation failed, in French too', async () => {
    open({ locale: 'fr' });
    fireEvent.click(await screen.findByRole('button', { name: 'Ajouter un produit' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText(/^Clé/), { target: { value: 'taken' } });
    fireEvent.change(within(dialog).getByLabelText(/^Nom/), { target: { value: 'Pris' } });
    fireEvent.change(within(dialog).getByLabelText(/^Description/), { target: { value: 'Déjà là' } });
    fireEvent.click(within(dialog).getByTestId('product-submit'));
    expect((await within(dialog).findByTestId('product-modal-feedback')).textContent).toBe(
      "Le produit n'a pas pu être créé : Un produit utilise déjà cette clé.",
    );
  });
});
