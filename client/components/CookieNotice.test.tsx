// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderPublicPage } from '../test/render';
import { CookieNotice } from './CookieNotice';

describe('CookieNotice', () => {
  it('underlines its link, which colour alone would not tell from the sentence (WCAG 1.4.1)', () => {
    renderPublicPage(<CookieNotice />, { path: '/fr/login' });
    const link = screen.getByRole('link', { name: 'En savoir plus' });
    expect(link.getAttribute('href')).toBe('/fr/cookies-information');
    expect(link.classList.contains('p-underline')).toBe(true);
  });

  it('is written in the text colour, not the dimmed grey the link could not stand out from', () => {
    renderPublicPage(<CookieNotice />, { path: '/en/login' });
    const notice = screen.getByTestId('cookie-notice');
    expect(notice.textContent).toContain('Learn more');
    expect(notice.className).toBe('p-text-xs');
  });
});
