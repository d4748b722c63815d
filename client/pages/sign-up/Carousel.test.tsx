// @vitest-environment jsdom
import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeMatchMedia } from '../../test/media';
import { renderPublicPage } from '../../test/render';
import { TrialCarousel } from './Carousel';
import { CAROUSEL_INTERVAL_MS } from './use-carousel';

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  // as client/test/setup.ts leaves it: nothing preferred
  window.matchMedia = fakeMatchMedia();
});

/** The number of the slide shown (1 to 3); exactly one is shown. */
function shown(): number {
  const visible = [1, 2, 3].filter((n) => !(screen.getByTestId(`carousel-slide-${n}`) as HTMLElement).hidden);
  expect(visible).toHaveLength(1);
  return visible[0];
}

function wait(ms: number) {
  act(() => {
    vi.advanceTimersByTime(ms);
  });
}

const slides = () => screen.getByTestId('carousel-slide-1').parentElement!;

describe('the sign-up carousel', () => {
  it('moves on every 3000 ms and wraps around after the third step', () => {
    renderPublicPage(<TrialCarousel />, { path: '/en/sign-up' });
    expect(CAROUSEL_INTERVAL_MS).toBe(3000);
    expect(shown()).toBe(1);
    wait(2999);
    expect(shown()).toBe(1);
    wait(1);
    expect(shown()).toBe(2);
    wait(3000);
    expect(shown()).toBe(3);
    wait(3000);
    expect(shown()).toBe(1);
  });

  it('follows the WAI-ARIA carousel pattern: a described region, slides labelled "n of 3", no live region while moving', () => {
    renderPublicPage(<TrialCarousel />, { path: '/en/sign-up' });
    const region = screen.getByRole('region', { name: 'How your trial works' });
    expect(region.getAttribute('aria-roledescription')).toBe('carousel');
    const first = screen.getByTestId('carousel-slide-1');
    expect(first.getAttribute('role')).toBe('group');
    expect(first.getAttribute('aria-roledescription')).toBe('slide');
    expect(first.getAttribute('aria-label')).toBe('1 of 3');
    expect(screen.getByTestId('carousel-slide-3').getAttribute('aria-label')).toBe('3 of 3');
    expect(within(first).getByRole('heading', { level: 2 }).textContent).toBe('Sign up');
    expect(slides().getAttribute('aria-live')).toBe('off');
    // the rotation control comes first in the region
    expect(within(region).getAllByRole('button')[0]).toBe(screen.getByRole('button', { name: /Stop the automatic/ }));
  });

  it('goes back, forth and straight to a step by its buttons, and waits a full interval after each', () => {
    renderPublicPage(<TrialCarousel />, { path: '/en/sign-up' });
    fireEvent.click(screen.getByRole('button', { name: 'Previous step' }));
    expect(shown()).toBe(3);
    fireEvent.click(screen.getByRole('button', { name: 'Next step' }));
    expect(shown()).toBe(1);
    wait(2000);
    fireEvent.click(screen.getByRole('button', { name: 'Show step 3 of 3' }));
    expect(shown()).toBe(3);
    expect(screen.getByTestId('carousel-dot-3').getAttribute('aria-current')).toBe('true');
    expect(screen.getByTestId('carousel-dot-1').getAttribute('aria-current')).toBeNull();
    wait(2999);
    expect(shown()).toBe(3);
    wait(1);
    expect(shown()).toBe(1);
  });

  it('holds while the pointer is over it, and moves on once it leaves', () => {
    renderPublicPage(<TrialCarousel />, { path: '/en/sign-up' });
    const region = screen.getByTestId('signup-carousel');
    fireEvent.mouseEnter(region);
    wait(10_000);
    expect(shown()).toBe(1);
    expect(slides().getAttribute('aria-live')).toBe('polite');
    fireEvent.mouseLeave(region);
    wait(3000);
    expect(shown()).toBe(2);
  });

  it('holds while the focus is inside, even moving between its controls, and moves on once it leaves', () => {
    renderPublicPage(
      <>
        <TrialCarousel />
        <button type="button">outside</button>
      </>,
      { path: '/en/sign-up' },
    );
    const next = screen.getByRole('button', { name: 'Next step' });
    act(() => next.focus());
    wait(10_000);
    expect(shown()).toBe(1);
    act(() => screen.getByRole('button', { name: 'Previous step' }).focus());
    wait(10_000);
    expect(shown()).toBe(1);
    act(() => screen.getByRole('button', { name: 'outside' }).focus());
    wait(3000);
    expect(shown()).toBe(2);
  });

  it('stops with its pause control and starts again with play', () => {
    renderPublicPage(<TrialCarousel />, { path: '/en/sign-up' });
    const rotation = screen.getByTestId('carousel-rotation');
    fireEvent.click(rotation);
    expect(rotation.getAttribute('aria-label')).toBe('Start the automatic slide show');
    // clicked, the pointer left: still stopped
    fireEvent.mouseLeave(screen.getByTestId('signup-carousel'));
    act(() => rotation.blur());
    wait(10_000);
    expect(shown()).toBe(1);
    expect(slides().getAttribute('aria-live')).toBe('polite');
    fireEvent.click(rotation);
    act(() => rotation.blur());
    expect(rotation.getAttribute('aria-label')).toBe('Stop the automatic slide show');
    wait(3000);
    expect(shown()).toBe(2);
  });

  it('does not move by itself for a visitor who prefers reduced motion, until they press play', () => {
    window.matchMedia = fakeMatchMedia((query) => query === '(prefers-reduced-motion: reduce)');
    renderPublicPage(<TrialCarousel />, { path: '/en/sign-up' });
    wait(10_000);
    expect(shown()).toBe(1);
    const rotation = screen.getByTestId('carousel-rotation');
    expect(rotation.getAttribute('aria-label')).toBe('Start the automatic slide show');
    // the buttons still move it
    fireEvent.click(screen.getByRole('button', { name: 'Next step' }));
    expect(shown()).toBe(2);
    fireEvent.click(rotation);
    act(() => rotation.blur());
    wait(3000);
    expect(shown()).toBe(3);
  });

  it('speaks French on the French page', () => {
    renderPublicPage(<TrialCarousel />, { path: '/fr/sign-up' });
    expect(screen.getByRole('region', { name: 'Comment se déroule votre essai' })).toBeTruthy();
    expect(screen.getByTestId('carousel-slide-2').getAttribute('aria-label')).toBe('2 sur 3');
    expect(screen.getByRole('button', { name: 'Étape suivante' })).toBeTruthy();
  });
});
