// @vitest-environment jsdom
import { MantineProvider } from '@mantine/core';
import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { TranslatorProvider } from '../i18n/use-translation';
import { describe, expect, it, vi } from 'vitest';
import { createI18n } from '../i18n';
import { Pagination } from './Pagination';

function renderPagination(offset: number, total: number, onChange = vi.fn(), pageLength = 10) {
  render(
    <TranslatorProvider translator={createI18n('en')}>
      <MantineProvider env="test">
        <Pagination offset={offset} pageLength={pageLength} total={total} onChange={onChange} />
      </MantineProvider>
    </TranslatorProvider>,
  );
  return onChange;
}

describe('Pagination', () => {
  it('is hidden when everything fits on one page', () => {
    renderPagination(0, 10);
    expect(screen.queryByTestId('pagination')).toBeNull();
  });

  it('shows page X of Y with back disabled on the first page', () => {
    const onChange = renderPagination(0, 25);
    expect(screen.getByText('Page 1 of 3')).toBeTruthy();
    const back = screen.getByRole('button', { name: 'Previous page' }) as HTMLButtonElement;
    const next = screen.getByRole('button', { name: 'Next page' }) as HTMLButtonElement;
    expect(back.disabled).toBe(true);
    expect(next.disabled).toBe(false);
    fireEvent.click(next);
    expect(onChange).toHaveBeenCalledWith(10);
  });

  it('disables next on the last page and goes back one page length', () => {
    const onChange = renderPagination(20, 25);
    expect(screen.getByText('Page 3 of 3')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Next page' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(onChange).toHaveBeenCalledWith(10);
  });

  it('numbers the page as offset divided by page length', () => {
    renderPagination(15, 100, vi.fn(), 5);
    expect(screen.getByText('Page 4 of 20')).toBeTruthy();
  });

  it('speaks French', () => {
    render(
      <TranslatorProvider translator={createI18n('fr')}>
        <MantineProvider env="test">
          <Pagination offset={10} pageLength={10} total={30} onChange={() => {}} />
        </MantineProvider>
      </TranslatorProvider>,
    );
    expect(screen.getByText('Page 2 sur 3')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Page suivante' })).toBeTruthy();
  });
});

describe('Pagination focus', () => {
  function Harness({ total }: { total: number }) {
    const [offset, setOffset] = useState(0);
    return (
      <TranslatorProvider translator={createI18n('en')}>
        <MantineProvider env="test">
          <button type="button">elsewhere</button>
          <Pagination offset={offset} pageLength={10} total={total} onChange={setOffset} />
        </MantineProvider>
      </TranslatorProvider>
    );
  }

  it('moves the focus to Previous when Next reaches the last page, and back to Next on the first', () => {
    render(<Harness total={25} />);
    const back = screen.getByRole('button', { name: 'Previous page' }) as HTMLButtonElement;
    const next = screen.getByRole('button', { name: 'Next page' }) as HTMLButtonElement;
    next.focus();
    fireEvent.click(next);
    expect(screen.getByText('Page 2 of 3')).toBeTruthy();
    // Still a next page: the focus stays where the user pressed.
    expect(document.activeElement).toBe(next);
    fireEvent.click(next);
    expect(screen.getByText('Page 3 of 3')).toBeTruthy();
    expect(next.disabled).toBe(true);
    expect(document.activeElement).toBe(back);

    fireEvent.click(back);
    expect(document.activeElement).toBe(back);
    fireEvent.click(back);
    expect(screen.getByText('Page 1 of 3')).toBeTruthy();
    expect(back.disabled).toBe(true);
    expect(document.activeElement).toBe(next);
  });

  it('leaves the focus alone when the user has moved elsewhere', () => {
    const onChange = vi.fn();
    const { rerender } = render(
      <TranslatorProvider translator={createI18n('en')}>
        <MantineProvider env="test">
          <button type="button">elsewhere</button>
          <Pagination offset={10} pageLength={10} total={30} onChange={onChange} />
        </MantineProvider>
      </TranslatorProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    const elsewhere = screen.getByRole('button', { name: 'elsewhere' });
    elsewhere.focus();
    rerender(
      <TranslatorProvider translator={createI18n('en')}>
        <MantineProvider env="test">
          <button type="button">elsewhere</button>
          <Pagination offset={20} pageLength={10} total={30} onChange={onChange} />
        </MantineProvider>
      </TranslatorProvider>,
    );
    expect(document.activeElement).toBe(elsewhere);
  });
});
