// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { SMALL_SCREEN_QUERY } from '../components/layout';
import { toastHistory, notify } from '../components/notify';
import { fakeMatchMedia } from '../test/media';
import { renderPage } from '../test/render';
import { Toasts } from './Toasts';

const original = Object.getOwnPropertyDescriptor(window, 'matchMedia');
afterEach(() => {
  if (original) Object.defineProperty(window, 'matchMedia', original);
  toastHistory.clear();
});

async function toastPosition(): Promise<string | null | undefined> {
  renderPage(<Toasts />);
  act(() => {
    notify({ status: 'success', message: 'Saved it' });
  });
  const toast = await screen.findByText('Saved it');
  await waitFor(() => expect(toast.closest('[data-position]')).not.toBeNull());
  return toast.closest('[data-position]')?.getAttribute('data-position');
}

describe('Toasts', () => {
  it('shows toasts at the bottom of a phone, away from the bar, the notification centre and a modal’s header', async () => {
    window.matchMedia = fakeMatchMedia((query) => query === SMALL_SCREEN_QUERY);
    expect(await toastPosition()).toBe('bottom-center');
  });

  it('shows them at the bottom right on a wide screen, off the bar and the page title', async () => {
    window.matchMedia = fakeMatchMedia(() => false);
    expect(await toastPosition()).toBe('bottom-right');
  });
});
