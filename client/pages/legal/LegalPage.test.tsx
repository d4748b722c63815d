// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi } from '../../test/fake-api';
import { builtinConfig, renderPage } from '../../test/render';
import { LegalPage } from './LegalPage';

const html = '<h2>Who we are</h2><p>We process <a href="https://example.com" target="_blank">data</a>.</p>';

describe('LegalPage', () => {
  it("shows the server's rendered document in the page's language", async () => {
    const api = fakeApi({
      'GET /api/legal/privacy-policy': () => ({ status: 200, body: { html, locale: 'fr', fallback: false } }),
    });
    renderPage(<LegalPage document="privacy-policy" />, {
      path: '/fr/privacy-policy',
      route: '/:locale/privacy-policy',
    });
    const document = await screen.findByTestId('legal-document');
    expect(screen.getByRole('heading', { level: 2, name: 'Who we are' })).toBeTruthy();
    expect(document.querySelector('[lang]')?.getAttribute('lang')).toBe('fr');
    expect(screen.getByRole('link', { name: 'data' }).getAttribute('href')).toBe('https://example.com');
    expect(api.calls('GET /api/legal/privacy-policy')[0].query.get('locale')).toBe('fr');
    expect(screen.queryByText("Ce document n'est disponible qu'en anglais.")).toBeNull();
  });

  it('says when the document exists in English only', async () => {
    fakeApi({
      'GET /api/legal/data-processing': () => ({ status: 200, body: { html, locale: 'en', fallback: false } }),
    });
    renderPage(<LegalPage document="data-processing" />, {
      path: '/fr/data-processing',
      route: '/:locale/data-processing',
    });
    const document = await screen.findByTestId('legal-document');
    expect(document.querySelector('[lang]')?.getAttribute('lang')).toBe('en');
    expect(screen.getByText("Ce document n'est disponible qu'en anglais.")).toBeTruthy();
  });

  it('links to the configured copy when the server could only send the shipped one', async () => {
    fakeApi({ 'GET /api/legal/privacy-policy': () => ({ status: 200, body: { html, locale: 'en', fallback: true } }) });
    renderPage(<LegalPage document="privacy-policy" />, {
      path: '/en/privacy-policy',
      route: '/:locale/privacy-policy',
      config: { ...builtinConfig, legalBaseUrl: 'https://legal.example/docs' },
    });
    expect(await screen.findByTestId('legal-document')).toBeTruthy();
    expect(screen.getByRole('link', { name: /Open the document/ }).getAttribute('href')).toBe(
      'https://legal.example/docs/en/privacy-policy.md',
    );
  });

  it('says so when the document cannot be loaded', async () => {
    fakeApi({ 'GET /api/legal/privacy-policy': () => apiError(500, 'internal_error', 'boom') });
    renderPage(<LegalPage document="privacy-policy" />, {
      path: '/en/privacy-policy',
      route: '/:locale/privacy-policy',
    });
    expect((await screen.findByRole('alert')).textContent).toBe('The document could not be loaded.');
    expect(screen.queryByTestId('legal-document')).toBeNull();
  });
});
