// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SearchResult } from '../../../common/api/search';
import { fakeApi } from '../../test/fake-api';
import { renderPage } from '../../test/render';
import { openSearchSheet, SearchSheet } from './SearchSheet';

const RESULTS: SearchResult[] = [
  { kind: 'customer', key: '4', title: 'Acme Analytics', context: 'ACME000001', path: '/accounts/4' },
  { kind: 'customer', key: '5', title: 'Acme Labs', context: 'ACME000002', path: '/accounts/5' },
  {
    kind: 'user',
    key: '9',
    title: 'Ada Acme',
    context: 'ada@acme.example',
    path: '/users?q=ada%40acme.example',
  },
  { kind: 'product', key: 'graph', title: 'Graph Server', context: 'graph', path: '/products/graph' },
];

const answer = (query: URLSearchParams) => {
  const q = (query.get('q') ?? '').toLowerCase();
  return { status: 200, body: { data: RESULTS.filter((r) => r.title.toLowerCase().includes(q)) } };
};

// the Spotlight scrolls the chosen option into view, which jsdom does not lay out
beforeAll(() => {
  if (!('scrollIntoView' in Element.prototype)) Object.assign(Element.prototype, { scrollIntoView: () => undefined });
});
afterEach(() => vi.useRealTimers());

async function openSheet(path = '/en') {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  const api = fakeApi({ 'GET /api/search': ({ query }) => answer(query) });
  renderPage(<SearchSheet />, { path });
  await act(async () => openSearchSheet());
  const input = await screen.findByRole('combobox');
  return { api, input };
}

const type = async (input: HTMLElement, value: string) => {
  fireEvent.change(input, { target: { value } });
  await act(() => vi.advanceTimersByTimeAsync(100));
};

describe('SearchSheet', () => {
  it('asks once typing pauses 300 ms, from two characters, and groups the results by kind', async () => {
    const { api, input } = await openSheet();
    expect(screen.getByTestId('search-status').textContent).toContain('Type at least 2 characters');
    await type(input, 'a');
    await act(() => vi.advanceTimersByTimeAsync(400));
    expect(api.calls('GET /api/search')).toHaveLength(0);
    for (const text of ['ac', 'acm', 'acme']) await type(input, text);
    expect(api.calls('GET /api/search')).toHaveLength(0);
    await act(() => vi.advanceTimersByTimeAsync(300));
    expect(api.calls('GET /api/search').map((r) => r.query.get('q'))).toEqual(['acme']);

    const listbox = await screen.findByRole('listbox');
    const groups = within(listbox).getAllByRole('group');
    expect(groups.map((g) => g.getAttribute('aria-label'))).toEqual(['Customers', 'Users']);
    expect(
      within(groups[0])
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Acme AnalyticsACME000001', 'Acme LabsACME000002']);
    expect(input.getAttribute('aria-controls')).toBe(listbox.id);
    expect(input.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByTestId('search-status').textContent).toBe('3 results');
  });

  it('makes the first result of every new search active, names the one the arrow keys reach and opens its page with Enter', async () => {
    const { input } = await openSheet();
    await type(input, 'acme');
    await act(() => vi.advanceTimersByTimeAsync(300));
    const options = await screen.findAllByRole('option');
    const activeIs = (index: number) => {
      expect(input.getAttribute('aria-activedescendant')).toBe(options[index].id);
      // one option is active, and it is the highlighted one
      expect(options.map((o) => o.getAttribute('aria-selected'))).toEqual(options.map((_, i) => String(i === index)));
      expect(options.map((o) => o.hasAttribute('data-selected'))).toEqual(options.map((_, i) => i === index));
    };
    activeIs(0);
    for (const expected of [1, 2, 0]) {
      fireEvent.keyDown(input, { key: 'ArrowDown', code: 'ArrowDown' });
      await act(() => vi.advanceTimersByTimeAsync(10));
      activeIs(expected);
    }
    fireEvent.keyDown(input, { key: 'ArrowUp', code: 'ArrowUp' });
    await act(() => vi.advanceTimersByTimeAsync(10));
    activeIs(2);
    fireEvent.keyDown(input, { key: 'ArrowUp', code: 'ArrowUp' });
    await act(() => vi.advanceTimersByTimeAsync(10));
    activeIs(1);
    fireEvent.keyDown(input, { key: 'Enter', code: 'Enter' });
    expect((await screen.findByTestId('location')).textContent).toBe('/en/accounts/5');
  });

  it('starts a repeated search on its first result, and Enter waits for the results of the text typed', async () => {
    const { api, input } = await openSheet();
    await type(input, 'acme');
    await act(() => vi.advanceTimersByTimeAsync(300));
    await screen.findAllByRole('option');
    fireEvent.keyDown(input, { key: 'ArrowDown', code: 'ArrowDown' });
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(screen.getAllByRole('option')[1].getAttribute('aria-selected')).toBe('true');

    // another text: until its results are in, none of the previous ones is active
    await type(input, 'acme l');
    expect(input.getAttribute('aria-activedescendant')).toBeNull();
    fireEvent.keyDown(input, { key: 'Enter', code: 'Enter' });
    await act(() => vi.advanceTimersByTimeAsync(300));
    expect(screen.queryByTestId('location')?.textContent ?? '/en').toBe('/en');
    // the previous results stay on screen, none active, until the answer to the new text is in
    await waitFor(() =>
      expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Acme LabsACME000002']),
    );
    const labs = screen.getAllByRole('option');
    expect(input.getAttribute('aria-activedescendant')).toBe(labs[0].id);

    // the first text again, answered from the cache at once: its first result is active, not the one left
    await type(input, 'acme');
    await act(() => vi.advanceTimersByTimeAsync(300));
    await screen.findByText('3 results');
    const again = screen.getAllByRole('option');
    expect(input.getAttribute('aria-activedescendant')).toBe(again[0].id);
    expect(again[0].getAttribute('aria-selected')).toBe('true');
    expect(api.calls('GET /api/search').map((r) => r.query.get('q'))).toEqual(['acme', 'acme l']);
    fireEvent.keyDown(input, { key: 'Enter', code: 'Enter' });
    expect((await screen.findByTestId('location')).textContent).toBe('/en/accounts/4');
  });

  it('says when nothing matches, in French too', async () => {
    const { input } = await openSheet('/fr');
    expect(input.getAttribute('aria-label')).toBe(
      'Rechercher des clients, des personnes, des licences, des produits et des versions',
    );
    await type(input, 'zzz');
    await act(() => vi.advanceTimersByTimeAsync(300));
    expect((await screen.findByText('Aucun résultat pour « zzz »')).getAttribute('role')).toBe('status');
    expect(screen.queryAllByRole('option')).toHaveLength(0);
    expect(input.getAttribute('aria-expanded')).toBe('false');
  });
});
