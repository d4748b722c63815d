// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { User } from '../../../common/api/users';
import { userCan } from '../../test/abilities';
import { type FakeAnswer, fakeApi } from '../../test/fake-api';
import { renderPage } from '../../test/render';
import { UsersPage } from './UsersPage';

/** A row as the server answers it to the signed-in admin (user 1, Alice Martin): with its `can`. */
const user = (id: number, fullname: string): User => ({
  id,
  fullname,
  email: `${fullname.split(' ')[0].toLowerCase()}@demo.portal`,
  type: 'admin',
  status: 'enabled',
  preferredLocale: 'en',
  can: userCan({ self: id === 1 }),
  twoFactor: { passkeys: id === 1 ? 1 : 0, authenticator: id === 1 },
});
const everyone = [user(1, 'Alice Martin'), user(3, 'Priya Nair')];

/** GET /api/users as the server answers it: a filter on name or e-mail, a page of the matches. */
function usersAnswer(query: URLSearchParams, users: User[] = everyone): FakeAnswer {
  const filter = (query.get('filter') ?? '').toLowerCase();
  const matches = users.filter((u) => `${u.fullname} ${u.email}`.toLowerCase().includes(filter));
  const pageOffset = Number(query.get('pageOffset') ?? 0);
  const pageLength = Number(query.get('pageLength') ?? 10);
  return {
    status: 200,
    body: {
      results: matches.slice(pageOffset, pageOffset + pageLength),
      pageOffset,
      pageLength,
      totalHits: matches.length,
      totalHitsCapped: false,
    },
  };
}

const renderUsers = (path = '/en/users') => renderPage(<UsersPage />, { path, route: '/:locale/users' });

afterEach(() => vi.useRealTimers());

describe('UsersPage', () => {
  it('focuses the search, and says clearly when a search matches nobody', async () => {
    // the clock is the test's: typing pauses exactly as long as it says
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = fakeApi({ 'GET /api/users': ({ query }) => usersAnswer(query) });
    renderUsers();
    expect(await screen.findByText('Priya Nair')).toBeTruthy();
    const search = screen.getByLabelText('Search users');
    expect(document.activeElement).toBe(search);
    expect(document.title).toBe('Users · Graph Portal');

    // Keystrokes 100 ms apart: one request for the final text once typing pauses (300 ms), none per keystroke.
    for (const text of ['z', 'zz', 'zzz']) {
      fireEvent.change(search, { target: { value: text } });
      await act(() => vi.advanceTimersByTimeAsync(100));
    }
    expect(api.calls('GET /api/users')).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(300));
    const empty = await screen.findByTestId('users-empty', {}, { timeout: 5000 });
    expect(empty.textContent).toContain('No user matches “zzz”.');
    expect(empty.getAttribute('role')).toBe('status');
    expect(screen.queryByTestId('users-table')).toBeNull();
    const filters = api.calls('GET /api/users').map((r) => r.query.get('filter'));
    expect(filters).toEqual([null, 'zzz']);
  });

  it("offers each row's edit where its can says so, and opens it with the status as can says", async () => {
    const locked = { ...user(4, 'Read Only'), can: { edit: false, changeStatus: false } };
    fakeApi({ 'GET /api/users': ({ query }) => usersAnswer(query, [...everyone, locked]) });
    renderUsers();
    const rows = await screen.findAllByTestId('user-row');
    expect(rows.map((row) => within(row).queryByTestId('user-edit') !== null)).toEqual([true, true, false]);
    fireEvent.click(within(rows[0]).getByTestId('user-edit'));
    expect((within(await screen.findByRole('dialog')).getByLabelText('Status') as HTMLSelectElement).disabled).toBe(
      true,
    );
  });

  it('says so in French, title included', async () => {
    fakeApi({ 'GET /api/users': ({ query }) => usersAnswer(query) });
    renderUsers('/fr/users');
    fireEvent.change(await screen.findByLabelText('Rechercher des utilisateurs'), { target: { value: 'nobody' } });
    const empty = await screen.findByTestId('users-empty', {}, { timeout: 5000 });
    expect(empty.textContent).toContain('Aucun utilisateur ne correspond à « nobody ».');
    expect(document.title).toBe('Utilisateurs · Graph Portal');
  });

  it('shows whether each user has two-factor sign-in on', async () => {
    fakeApi({ 'GET /api/users': ({ query }) => usersAnswer(query) });
    renderUsers('/en/users');
    const cells = await screen.findAllByTestId('user-two-factor');
    expect(cells.map((cell) => cell.textContent)).toEqual([
      'On 1 passkey, authenticator app: yes',
      'Off 0 passkeys, authenticator app: no',
    ]);
    expect(screen.getByRole('columnheader', { name: 'Two-factor' })).toBeTruthy();
  });

  it('says the two-factor status in French', async () => {
    fakeApi({ 'GET /api/users': ({ query }) => usersAnswer(query) });
    renderUsers('/fr/users');
    const cells = await screen.findAllByTestId('user-two-factor');
    expect(cells.map((cell) => cell.textContent)).toEqual([
      'Activée 1 clé d’accès, application d’authentification : oui',
      'Désactivée 0 clé d’accès, application d’authentification : non',
    ]);
    expect(screen.getByRole('columnheader', { name: 'Double authentification' })).toBeTruthy();
  });

  it('shows a load failure with a retry that reloads the list', async () => {
    let down = true;
    fakeApi({ 'GET /api/users': ({ query }) => (down ? 'network-error' : usersAnswer(query)) });
    renderUsers();
    const error = await screen.findByTestId('users-error');
    expect(error.getAttribute('role')).toBe('alert');
    expect(error.textContent).toContain(
      'The users could not be loaded: The portal cannot be reached. Check your connection and try again.',
    );
    expect(screen.queryByTestId('users-table')).toBeNull();

    down = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Priya Nair')).toBeTruthy();
    expect(screen.queryByTestId('users-error')).toBeNull();
  });

  it('pages through the list: page X of Y, next loads the next offset, back disabled on the first', async () => {
    const many = Array.from({ length: 12 }, (_, i) => user(i + 1, `Person ${String(i + 1).padStart(2, '0')}`));
    const api = fakeApi({ 'GET /api/users': ({ query }) => usersAnswer(query, many) });
    renderUsers();
    expect(await screen.findByText('Page 1 of 2')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Previous page' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('Page 2 of 2')).toBeTruthy();
    expect(screen.getByText('Person 12')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Next page' }) as HTMLButtonElement).disabled).toBe(true);
    await waitFor(() => expect(api.calls('GET /api/users').at(-1)?.query.get('pageOffset')).toBe('10'));
  });

  it('says how many users match, and "more than" when the server stopped counting', async () => {
    fakeApi({ 'GET /api/users': ({ query }) => usersAnswer(query) });
    renderUsers();
    expect((await screen.findByTestId('users-count')).textContent).toBe('2 users');
  });

  it('keeps next open past a capped count', async () => {
    const page = Array.from({ length: 10 }, (_, i) => user(i + 1, `Person ${i + 1}`));
    const capped = (query: URLSearchParams): FakeAnswer => ({
      status: 200,
      body: {
        results: page,
        pageOffset: Number(query.get('pageOffset') ?? 0),
        pageLength: 10,
        totalHits: 1000,
        totalHitsCapped: true,
      },
    });
    const api = fakeApi({ 'GET /api/users': ({ query }) => capped(query) });
    renderUsers();
    expect((await screen.findByTestId('users-count')).textContent).toBe('More than 1,000 users');
    expect(screen.getByText('Page 1 of more than 100')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(api.calls('GET /api/users').at(-1)?.query.get('pageOffset')).toBe('10'));
  });

  it('says "more than" in French with French digit grouping', async () => {
    fakeApi({
      'GET /api/users': () => ({
        status: 200,
        body: { results: everyone, pageOffset: 0, pageLength: 10, totalHits: 1000, totalHitsCapped: true },
      }),
    });
    renderUsers('/fr/users');
    expect((await screen.findByTestId('users-count')).textContent).toBe('Plus de 1\u202f000 utilisateurs');
    expect(screen.getByText('Page 1 sur plus de 100')).toBeTruthy();
  });

  it('hides the pagination when everything fits on one page', async () => {
    fakeApi({ 'GET /api/users': ({ query }) => usersAnswer(query) });
    renderUsers();
    expect(await screen.findByText('Priya Nair')).toBeTruthy();
    expect(screen.queryByTestId('pagination')).toBeNull();
  });
});
