import { describe, expect, it } from 'vitest';
import {
  documentLocale,
  externalDocumentUrl,
  LEGAL_DOCUMENTS,
  loadBundledDocument,
  withoutLeadingTitle,
} from './documents';

describe('legal documents', () => {
  it('ships every document in English and the translated ones in French', async () => {
    for (const document of LEGAL_DOCUMENTS) {
      for (const locale of ['en', 'fr'] as const) {
        expect((await loadBundledDocument(document, locale)).length, `${document} ${locale}`).toBeGreaterThan(500);
      }
    }
  });

  it('serves the data-processing agreement in English whatever the locale', async () => {
    expect(documentLocale('data-processing', 'fr')).toBe('en');
    expect(documentLocale('privacy-policy', 'fr')).toBe('fr');
    expect(await loadBundledDocument('data-processing', 'fr')).toBe(await loadBundledDocument('data-processing', 'en'));
  });

  it('builds the configured URL per locale', () => {
    expect(externalDocumentUrl('https://legal.example/docs/', 'terms-and-conditions', 'fr')).toBe(
      'https://legal.example/docs/fr/terms-and-conditions.md',
    );
    expect(externalDocumentUrl('https://legal.example', 'data-processing', 'fr')).toBe(
      'https://legal.example/en/data-processing.md',
    );
  });

  it('drops only a leading level-one title', () => {
    expect(withoutLeadingTitle('# Terms\n\nText\n# Other')).toBe('Text\n# Other');
    expect(withoutLeadingTitle('## Section\nText')).toBe('## Section\nText');
  });
});
