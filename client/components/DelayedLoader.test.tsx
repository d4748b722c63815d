// @vitest-environment jsdom
import { MantineProvider } from '@mantine/core';
import { act, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createI18n } from '../i18n';
import { DelayedLoader } from './DelayedLoader';

afterEach(() => vi.useRealTimers());

describe('DelayedLoader', () => {
  it('shows nothing for the first 200 ms, then a status the page language names', async () => {
    vi.useFakeTimers();
    render(
      <I18nextProvider i18n={createI18n('fr')}>
        <MantineProvider env="test">
          <DelayedLoader />
        </MantineProvider>
      </I18nextProvider>,
    );
    await act(() => vi.advanceTimersByTime(199));
    expect(screen.queryByRole('status')).toBeNull();
    await act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole('status').textContent).toBe('Chargement…');
  });
});
