// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { lazy, Suspense } from 'react';
import { Link, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { expectConsoleError } from '../test/console';
import { renderPage } from '../test/render';
import { PageErrorBoundary } from './ErrorBoundary';
import { reloader, RELOAD_GUARD_MS } from './reload';

// What Chromium says when a page's code cannot be fetched (a new release removed it, the network).
const chunkError = () => new TypeError('Failed to fetch dynamically imported module: /assets/UsersPage-x1.js');

function pageWhoseCodeFails() {
  return lazy(() => Promise.reject(chunkError()));
}

/** Crashes on the first address, renders elsewhere. */
function Crashing() {
  if (useLocation().pathname === '/en') throw new Error('Cannot read properties of null');
  return <p>another page</p>;
}

/** The boundary as routes.tsx places it, with a link elsewhere to check that a navigation resets it. */
function Pages({ children }: { children: React.ReactNode }) {
  const location = useLocation();
  return (
    <>
      <Link to="/en/elsewhere">elsewhere</Link>
      <PageErrorBoundary resetKey={location.pathname}>
        <Suspense fallback={null}>{children}</Suspense>
      </PageErrorBoundary>
    </>
  );
}

let reload: ReturnType<typeof vi.spyOn>;
let server: ReturnType<typeof vi.spyOn>;
/** What the server says of the page's file when asked again: gone (a new release) unless told otherwise. */
const fileGone = () => Promise.resolve(new Response(null, { status: 404 }));
beforeEach(() => {
  reload = vi.spyOn(reloader, 'reload').mockImplementation(() => {});
  server = vi.spyOn(globalThis, 'fetch').mockImplementation(fileGone);
  // React reports each error a boundary catches
  expectConsoleError('The above error occurred');
});
afterEach(() => vi.restoreAllMocks());

describe('a page that fails', () => {
  it('whose code cannot be fetched reloads the page once to pick up the new release', async () => {
    const Page = pageWhoseCodeFails();
    renderPage(
      <Pages>
        <Page />
      </Pages>,
    );
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(screen.queryByTestId('error-page')).toBeNull();
    expect(Number(window.sessionStorage.getItem('chunk-reload-at'))).toBeGreaterThan(Date.now() - 5_000);
    // The file was asked for again, and the server said it is gone.
    expect(String(server.mock.calls[0]?.[0])).toBe('/assets/UsersPage-x1.js');
  });

  for (const { path, what, answer, message, button } of [
    {
      path: '/en',
      what: 'the server does not answer',
      answer: () => Promise.reject(new TypeError('Failed to fetch')),
      message: /This page could not be loaded/,
      button: 'Reload the page',
    },
    {
      path: '/fr',
      what: 'the file is still there (the network failed)',
      answer: () => Promise.resolve(new Response(null, { status: 200 })),
      message: /n'a pas pu être chargée/,
      button: 'Recharger la page',
    },
  ]) {
    it(`shows the message and a reload button, without reloading, when ${what} (${path})`, async () => {
      server.mockImplementation(answer);
      expectConsoleError('A page could not be fetched');
      const Page = pageWhoseCodeFails();
      renderPage(
        <Pages>
          <Page />
        </Pages>,
        { path },
      );
      expect(await screen.findByTestId('error-page')).toBeTruthy();
      expect(screen.getByRole('alert').textContent).toMatch(message);
      expect(reload).not.toHaveBeenCalled();
      expect(window.sessionStorage.getItem('chunk-reload-at')).toBeNull();
      fireEvent.click(screen.getByRole('button', { name: button }));
      expect(reload).toHaveBeenCalledTimes(1);
    });
  }

  it('shows the error page with a reload and a link home when it fails again right after the reload', async () => {
    window.sessionStorage.setItem('chunk-reload-at', String(Date.now() - 1_000));
    expectConsoleError('A page could not be fetched');
    const Page = pageWhoseCodeFails();
    renderPage(
      <Pages>
        <Page />
      </Pages>,
      { path: '/fr' },
    );
    expect(await screen.findByTestId('error-page')).toBeTruthy();
    expect(reload).not.toHaveBeenCalled();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Erreur');
    expect(screen.getByRole('alert').textContent).toMatch(/n'a pas pu être chargée/);
    expect(screen.getByRole('link', { name: "Retour à l'accueil" }).getAttribute('href')).toBe('/fr');
    fireEvent.click(screen.getByRole('button', { name: 'Recharger la page' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('reloads again once the last automatic reload is long past', async () => {
    window.sessionStorage.setItem('chunk-reload-at', String(Date.now() - RELOAD_GUARD_MS - 1_000));
    const Page = pageWhoseCodeFails();
    renderPage(
      <Pages>
        <Page />
      </Pages>,
    );
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
  });

  it('that crashes while rendering shows the error page, without reloading, and a navigation clears it', async () => {
    expectConsoleError('A page failed Error: Cannot read properties of null');
    renderPage(
      <Pages>
        <Crashing />
      </Pages>,
      { route: '/:locale/*' },
    );
    expect(await screen.findByTestId('error-page')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('This page stopped because of an unexpected error.');
    expect(reload).not.toHaveBeenCalled();
    await act(async () => fireEvent.click(screen.getByRole('link', { name: 'elsewhere' })));
    expect(screen.queryByTestId('error-page')).toBeNull();
    expect(screen.getByText('another page')).toBeTruthy();
  });
});
