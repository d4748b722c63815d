// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ProductToken } from '../../../common/api/catalogue';
import { toastHistory } from '../../components/notify';
import { apiError, fakeApi } from '../../test/fake-api';
import { renderPage } from '../../test/render';
import { ProductTokensSection } from './ProductTokensSection';

const TOKEN = `pt_${'Q'.repeat(43)}`;

let tokens: ProductToken[];

function open() {
  const api = fakeApi({
    'GET /api/products/server/tokens': () => ({ status: 200, body: { data: tokens } }),
    'POST /api/products/server/tokens': (request) => {
      const created = {
        id: 3,
        name: (request.body as { name: string }).name,
        createdAt: '2026-11-23T09:00:00.000Z',
        lastUsedAt: null,
      };
      tokens = [created, ...tokens];
      return { status: 201, body: { ...created, token: TOKEN } };
    },
    'DELETE /api/products/server/tokens/1': () => {
      tokens = tokens.filter((token) => token.id !== 1);
      return { status: 200, body: { ok: true } };
    },
  });
  renderPage(<ProductTokensSection productKey="server" />);
  return api;
}

beforeEach(() => {
  tokens = [
    { id: 2, name: 'Nightly', createdAt: '2026-11-10T08:00:00.000Z', lastUsedAt: null },
    { id: 1, name: 'Release pipeline', createdAt: '2026-10-01T08:00:00.000Z', lastUsedAt: '2026-11-22T23:30:00.000Z' },
  ];
  toastHistory.clear();
});
afterEach(() => vi.unstubAllGlobals());

describe('ProductTokensSection', () => {
  it('lists the tokens with their creation and last-used days', async () => {
    open();
    const rows = await screen.findAllByTestId('product-token-row');
    expect(
      rows.map((row) =>
        Array.from(row.querySelectorAll('td'))
          .slice(0, 3)
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['Nightly', '2026-11-10', 'Never'],
      ['Release pipeline', '2026-10-01', '2026-11-22'],
    ]);
  });

  it('creates a token and shows it once, with its copy button and the curl command', async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    const api = open();
    await screen.findAllByTestId('product-token-row');
    fireEvent.click(screen.getByTestId('product-token-add'));
    fireEvent.change(await screen.findByLabelText(/Name/), { target: { value: ' CI ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));

    expect((await screen.findByTestId('product-token-value')).textContent).toBe(TOKEN);
    expect(api.calls('POST /api/products/server/tokens')[0].body).toEqual({ name: 'CI' });
    const command = screen.getByTestId('product-token-curl').textContent ?? '';
    expect(command).toContain(`-H "Authorization: Bearer ${TOKEN}"`);
    expect(command).toMatch(/^curl --fail-with-body -T "\$FILE" .*\/api\/versions\/\$VERSION_ID\/artifacts\/linux"$/);

    // the modal's close button is named in the reader's language
    expect(screen.getByRole('button', { name: 'Close' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Copy the token' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(TOKEN));
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByTestId('product-token-value')).toBeNull());
    // the list shows the new token, never its value
    await waitFor(() => expect(screen.getAllByTestId('product-token-row')).toHaveLength(3));
    expect(document.body.textContent).not.toContain(TOKEN);
  });

  it('asks for a name before creating', async () => {
    const api = open();
    await screen.findAllByTestId('product-token-row');
    fireEvent.click(screen.getByTestId('product-token-add'));
    await screen.findByLabelText(/Name/);
    expect(screen.getByRole('button', { name: 'Close' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('This field is required.')).toBeTruthy();
    expect(api.calls('POST /api/products/server/tokens')).toHaveLength(0);
  });

  it('revokes a token after a confirmation', async () => {
    const api = open();
    const rows = await screen.findAllByTestId('product-token-row');
    fireEvent.click(within(rows[1]).getByRole('button', { name: 'Revoke the token Release pipeline' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke the API token' });
    expect(within(dialog).getByTestId('product-token-revoke-confirm').textContent).toContain(
      'Revoke "Release pipeline"? Uploads with it will be refused from now on.',
    );
    expect(api.calls('DELETE /api/products/server/tokens/1')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(api.calls('DELETE /api/products/server/tokens/1')).toHaveLength(1));
    await waitFor(() => expect(screen.getAllByTestId('product-token-row')).toHaveLength(1));
    expect(toastHistory.getSnapshot()[0]).toMatchObject({
      status: 'success',
      message: 'The token "Release pipeline" was revoked.',
    });
  });

  it('keeps a token when the revocation is cancelled', async () => {
    const api = open();
    const rows = await screen.findAllByTestId('product-token-row');
    fireEvent.click(within(rows[0]).getByRole('button', { name: 'Revoke the token Nightly' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke the API token' });
    expect(within(dialog).getByTestId('product-token-revoke-confirm').textContent).toContain('Revoke "Nightly"?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Revoke the API token' })).toBeNull());
    expect(api.requests.filter((request) => request.method === 'DELETE')).toHaveLength(0);
    expect(screen.getAllByTestId('product-token-row')).toHaveLength(2);
  });

  it('says why a token could not be revoked', async () => {
    const api = fakeApi({
      'GET /api/products/server/tokens': () => ({ status: 200, body: { data: tokens } }),
      'DELETE /api/products/server/tokens/2': () => apiError(403, 'forbidden', 'Forbidden'),
    });
    renderPage(<ProductTokensSection productKey="server" />);
    const rows = await screen.findAllByTestId('product-token-row');
    fireEvent.click(within(rows[0]).getByRole('button', { name: 'Revoke the token Nightly' }));
    fireEvent.click(await screen.findByTestId('product-token-revoke-yes'));
    await waitFor(() => expect(api.calls('DELETE /api/products/server/tokens/2')).toHaveLength(1));
    await waitFor(() =>
      expect(toastHistory.getSnapshot()[0]).toMatchObject({
        status: 'error',
        message: 'The token could not be revoked: You are not allowed to do this.',
      }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Revoke the API token' })).toBeNull());
    expect(screen.getAllByTestId('product-token-row')).toHaveLength(2);
  });
});
