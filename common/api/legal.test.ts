import { describe, expect, it } from 'vitest';
import { documentLocale, externalDocumentUrl, isLegalDocument } from './legal';

describe('legal documents', () => {
  it('serves the data-processing agreement in English whatever the locale', () => {
    expect(documentLocale('data-processing', 'fr')).toBe('en');
    expect(documentLocale('privacy-policy', 'fr')).toBe('fr');
  });

  it('builds the configured URL per locale', () => {
    expect(externalDocumentUrl('https://legal.example/docs/', 'terms-and-conditions', 'fr')).toBe(
      'https://legal.example/docs/fr/terms-and-conditions.md',
    );
    expect(externalDocumentUrl('https://legal.example', 'data-processing', 'fr')).toBe(
      'https://legal.example/en/data-processing.md',
    );
  });

  it('knows only its four documents', () => {
    expect(isLegalDocument('privacy-policy')).toBe(true);
    expect(isLegalDocument('constructor')).toBe(false);
    expect(isLegalDocument('../secrets')).toBe(false);
  });
});
