import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Manifest, PAGE_MODULES, pageData, preloadLinks, TOP_BAR_MODULE, textsModules } from './page-hints';

const REPO = path.resolve(import.meta.dirname, '..', '..');

const MANIFEST: Manifest = {
  'index.html': { file: 'assets/index-1.js', imports: ['_react-1.js'], css: ['assets/index-1.css'] },
  '_react-1.js': { file: 'assets/react-1.js' },
  '_table-1.js': { file: 'assets/table-1.js', imports: ['_react-1.js'] },
  'client/pages/customers/CustomersPage.tsx': {
    file: 'assets/CustomersPage-1.js',
    imports: ['index.html', '_table-1.js'],
    css: ['assets/CustomersPage-1.css'],
  },
  'client/i18n/fr.json?sign-in': { file: 'assets/fr-1.js' },
  'client/i18n/fr.json?app': { file: 'assets/fr-2.js' },
  'client/i18n/en.json?sign-in': { file: 'assets/en-1.js' },
  'client/i18n/en.json?app': { file: 'assets/en-2.js' },
  [TOP_BAR_MODULE]: { file: 'assets/TopBar-1.js', imports: ['index.html', '_table-1.js'] },
};

describe('preload links of a signed-in page', () => {
  it("names the page's code, its language's texts and the top bar's, without what the entry loads already", () => {
    expect(
      preloadLinks(MANIFEST, '/fr/customers')
        .split('\n')
        .map((l) => l.trim()),
    ).toEqual([
      '<link rel="preload" as="fetch" crossorigin href="/api/config">',
      '<link rel="preload" as="script" crossorigin href="/assets/CustomersPage-1.js">',
      '<link rel="preload" as="style" crossorigin href="/assets/CustomersPage-1.css">',
      '<link rel="preload" as="script" crossorigin href="/assets/table-1.js">',
      '<link rel="preload" as="script" crossorigin href="/assets/fr-1.js">',
      '<link rel="preload" as="script" crossorigin href="/assets/fr-2.js">',
      '<link rel="preload" as="script" crossorigin href="/assets/TopBar-1.js">',
    ]);
  });

  it("names the customer page's one answer for its first screen, for a customer id only", () => {
    expect(pageData('/accounts/42')).toEqual(['/api/config', '/api/customers/42/page']);
    expect(pageData('/accounts/42/')).toEqual(['/api/config', '/api/customers/42/page']);
    expect(pageData('/accounts/0')).toEqual(['/api/config']);
    expect(pageData('/accounts/4x2')).toEqual(['/api/config']);
    expect(pageData('/customers')).toEqual(['/api/config']);
  });

  it('names nothing for a page it does not know, without a locale or without a manifest', () => {
    expect(preloadLinks(MANIFEST, '/en/nowhere')).toBe('');
    expect(preloadLinks(MANIFEST, '/customers')).toBe('');
    expect(preloadLinks(null, '/en/customers')).toBe('');
    expect(preloadLinks({}, '/en/customers')).toBe('');
  });

  it("knows each page by a module that exists, and the top bar's and the texts' modules too", () => {
    for (const [, module] of PAGE_MODULES) expect(fs.existsSync(path.join(REPO, module)), module).toBe(true);
    expect(fs.existsSync(path.join(REPO, TOP_BAR_MODULE))).toBe(true);
    for (const module of [...textsModules('en'), ...textsModules('fr')]) {
      expect(fs.existsSync(path.join(REPO, module.split('?')[0])), module).toBe(true);
    }
    // the application imports each language's texts by these names, which the build's manifest keeps
    const loader = fs.readFileSync(path.join(REPO, 'client/i18n/load.ts'), 'utf8');
    for (const module of [...textsModules('en'), ...textsModules('fr')]) {
      expect(loader, module).toContain(`import('./${path.basename(module)}')`);
    }
  });
});
