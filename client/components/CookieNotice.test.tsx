// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderPage } from '../test/render';
import { CookieNotice } from './CookieNotice';

describe('CookieNotice', () => {
  it('underlines its link, which colour alone would not tell from the sentence (WCAG 1.4.1)', () => {
    renderPage(<CookieNotice />, { path: '/fr/login', route: '/:locale/login', profile: null });
    const link = screen.getByRole('link', { name: 'En savoir plus' });
    expect(link.getAttribute('href')).toBe('/fr/cookies-information');
    expect(link.getAttribute('data-underline')).toBe('always');
  });

  it('is written in the text colour, not the dimmed grey the link could not stand out from', () => {
    renderPage(<CookieNotice />, { path: '/en/login', route: '/:locale/login', profile: null });
    const notice = screen.getByTestId('cookie-notice');
    expect(notice.textContent).toContain('Learn more');
    expect(notice.getAttribute('style') ?? '').not.toContain('dimmed');
  });
});
