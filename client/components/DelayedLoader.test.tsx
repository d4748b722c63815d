// @vitest-environment jsdom
import { MantineProvider } from '@mantine/core';
import { act, render, screen } from '@testing-library/react';
import { TranslatorProvider } from '../i18n/use-translation';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createI18n } from '../i18n';
import { DelayedLoader } from './DelayedLoader';

afterEach(() => vi.useRealTimers());

describe('DelayedLoader', () => {
  it('shows nothing for the first 200 ms, then a status the page language names', async () => {
    vi.useFakeTimers();
    render(
      <TranslatorProvider translator={createI18n('fr')}>
        <MantineProvider env="test">
          <DelayedLoader />
        </MantineProvider>
      </TranslatorProvider>,
    );
    await act(() => vi.advanceTimersByTime(199));
    expect(screen.queryByRole('status')).toBeNull();
    await act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole('status').textContent).toBe('Chargement…');
  });
});
