// @vitest-environment jsdom
import { MantineProvider, Modal, type ModalProps } from '@mantine/core';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { type ComponentType, startTransition, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { expectConsoleError } from '../test/console';
import { renderPage } from '../test/render';
import { ErrorBoundary } from '../app/ErrorBoundary';
import { createI18n } from '../i18n';
import { TranslatorProvider } from '../i18n/use-translation';
import { lazyDialog, preloadDialogs } from './lazy-dialog';

/** Every test's code arrives in the end: the set-up fetches all dialogs' code before each test. */
const arrivals: (() => void)[] = [];
afterEach(() => {
  for (const arrive of arrivals.splice(0)) arrive();
});

/** A loader that answers when told to, and counts how often it was asked. */
function deferredModal() {
  let resolve!: (component: ComponentType<ModalProps>) => void;
  let reject!: (error: Error) => void;
  const code = new Promise<ComponentType<ModalProps>>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  const loader = { calls: 0, arrive: () => resolve(Modal as ComponentType<ModalProps>), fail: reject };
  arrivals.push(loader.arrive);
  const Dialog = lazyDialog(() => {
    loader.calls++;
    return code;
  });
  return { Dialog, loader };
}

function Page({ Dialog }: { Dialog: ComponentType<ModalProps> }) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpened(true)}>
        Open
      </button>
      <Dialog opened={opened} onClose={() => setOpened(false)} title="The dialog" transitionProps={{ duration: 0 }}>
        <button type="button" onClick={() => setOpened(false)}>
          Done
        </button>
      </Dialog>
    </>
  );
}

describe('lazyDialog', () => {
  it('shows nothing and fetches nothing before the dialog is opened (but when the browser is idle)', () => {
    const { Dialog, loader } = deferredModal();
    renderPage(<Page Dialog={Dialog} />);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(loader.calls).toBe(0);
  });

  it('opens a dialog pressed before its code came as the code arrives, and gives the focus back on closing', async () => {
    const { Dialog, loader } = deferredModal();
    renderPage(<Page Dialog={Dialog} />);
    const open = screen.getByRole('button', { name: 'Open' });
    open.focus();
    fireEvent.click(open);
    expect(loader.calls).toBe(1);
    expect(screen.queryByRole('dialog')).toBeNull();
    await act(async () => loader.arrive());
    expect(await screen.findByRole('dialog', { name: 'The dialog' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(open));
  });

  it('opens at once once the code is here, and fetches it only once', async () => {
    const { Dialog, loader } = deferredModal();
    await act(async () => loader.arrive());
    renderPage(<Page Dialog={Dialog} />);
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect(await screen.findByRole('dialog', { name: 'The dialog' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect(await screen.findByRole('dialog', { name: 'The dialog' })).toBeTruthy();
    expect(loader.calls).toBe(1);
  });

  it('hands code that cannot be fetched to the page’s error boundary', async () => {
    // the boundary logs what it caught, and React with it
    expectConsoleError('A page failed Error: Failed to fetch dynamically imported module');
    expectConsoleError('The above error occurred in the <LazyDialog> component');
    const { Dialog, loader } = deferredModal();
    renderPage(
      <ErrorBoundary fallback={() => <p>The dialog could not be loaded</p>}>
        <Page Dialog={Dialog} />
      </ErrorBoundary>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    await act(async () => loader.fail(new Error('Failed to fetch dynamically imported module')));
    expect(await screen.findByText('The dialog could not be loaded')).toBeTruthy();
  });

  it('opens when its code, already asked for, arrives between the render and its effects', async () => {
    const actEnvironment = (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT;
    // React schedules as in a browser: a transition renders in slices that yield to the event loop
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
    const { Dialog, loader } = deferredModal();
    void preloadDialogs();
    let rendered = 0;
    let renderedWhenArrived = -1;
    function Slow() {
      const end = performance.now() + 3;
      while (performance.now() < end);
      rendered += 1;
      if (rendered === 1) {
        setTimeout(() => {
          renderedWhenArrived = rendered;
          loader.arrive();
        }, 0);
      }
      return null;
    }
    const container = document.createElement('div');
    document.body.append(container);
    const root = createRoot(container);
    try {
      startTransition(() =>
        root.render(
          <TranslatorProvider translator={createI18n('en')}>
            <MantineProvider>
              <Dialog opened onClose={() => {}} title="Opened at once" transitionProps={{ duration: 0 }}>
                <p>Inside</p>
              </Dialog>
              {Array.from({ length: 40 }, (_, index) => (
                <Slow key={index} />
              ))}
            </MantineProvider>
          </TranslatorProvider>,
        ),
      );
      await waitFor(() => expect(screen.getByRole('dialog', { name: 'Opened at once' })).toBeTruthy());
      expect(renderedWhenArrived).toBeGreaterThan(0);
      expect(renderedWhenArrived).toBeLessThan(40);
    } finally {
      root.unmount();
      container.remove();
      (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = actEnvironment;
    }
  });
});
