import { describe, expect, it } from 'vitest';
import { compressedSizes, formatTable, type Manifest, measure, type Sizes } from './check-bundle-size.mjs';

// A build in miniature: the entry imports a vendor chunk; the login page (lazy) imports a form
// chunk and shares the vendor one; the users page (lazy) is not the login route's.
const manifest: Manifest = {
  'index.html': { file: 'assets/index.js', isEntry: true, imports: ['_vendor.js'], dynamicImports: ['login.tsx'] },
  '_vendor.js': { file: 'assets/vendor.js' },
  'login.tsx': { file: 'assets/login.js', isDynamicEntry: true, imports: ['_form.js', '_vendor.js'] },
  '_form.js': { file: 'assets/form.js', imports: ['_vendor.js'] },
  'users.tsx': { file: 'assets/users.js', isDynamicEntry: true, imports: ['_form.js'] },
  'en.json': { file: 'assets/en.js', isDynamicEntry: true },
  // A second page (the sign-in pages' own) sharing the vendor chunk but not the application's entry.
  'public.html': { file: 'assets/public.js', isEntry: true, imports: ['_vendor.js'], dynamicImports: ['login.tsx'] },
  'fr.json': { file: 'assets/fr.js', isDynamicEntry: true },
};
const KB = 1024;
const gzipKb: Record<string, number> = {
  'assets/index.js': 50,
  'assets/vendor.js': 40,
  'assets/login.js': 10,
  'assets/form.js': 15,
  'assets/users.js': 30,
  'assets/en.js': 4,
  'assets/fr.js': 4,
  'assets/public.js': 5,
};
const sizeOf = (file: string): Sizes => ({
  raw: gzipKb[file] * 3 * KB,
  gzip: gzipKb[file] * KB,
  brotli: gzipKb[file] * 0.9 * KB,
});
const jsFiles = Object.keys(gzipKb);
const login = (budgetKb: number) => ({ name: '/en/login', budgetKb, lazy: ['login.tsx', 'en.json'] });

describe('bundle size check', () => {
  it('counts the entry, its imports, the page with its imports and the language, each once', () => {
    const [route, app] = measure({ manifest, jsFiles, sizeOf, routes: [login(120)], appBudgetKb: 400 });
    expect(route.files.sort()).toEqual(
      ['assets/en.js', 'assets/form.js', 'assets/index.js', 'assets/login.js', 'assets/vendor.js'].sort(),
    );
    expect(route.gzip).toBe(119 * KB);
    expect(route.over).toBe(false);
    expect(app.gzip).toBe(158 * KB);
    expect(app.over).toBe(false);
  });

  it('fails a route over its budget and an app over its own', () => {
    const rows = measure({ manifest, jsFiles, sizeOf, routes: [login(118)], appBudgetKb: 150 });
    expect(rows.map((row) => row.over)).toEqual([true, true]);
    expect(formatTable(rows, sizeOf)).toMatch(/\/en\/login .* 119\.0 KB .* 118 KB +OVER/);
  });

  it('counts a route served by another page from that page entry, not the application one', () => {
    const routes = [{ ...login(120), entry: 'public.html' }];
    const [route] = measure({ manifest, jsFiles, sizeOf, routes });
    expect(route.files.sort()).toEqual(
      ['assets/en.js', 'assets/form.js', 'assets/login.js', 'assets/public.js', 'assets/vendor.js'].sort(),
    );
    expect(route.gzip).toBe(74 * KB);
    expect(() => measure({ manifest, jsFiles, sizeOf, routes: [{ ...login(120), entry: 'gone.html' }] })).toThrow(
      /no entry chunk gone.html/,
    );
  });

  it('prints a goal beside the budget without failing on it', () => {
    const rows = measure({
      manifest,
      jsFiles,
      sizeOf,
      routes: [{ ...login(120), goalKb: 100 }],
      appBudgetKb: 400,
      appGoalKb: 200,
    });
    expect(rows.map((row) => row.over)).toEqual([false, false]);
    const table = formatTable(rows, sizeOf, { details: false });
    expect(table).toMatch(/\/en\/login .* 120 KB +ok +100 KB \(not yet\)/);
    expect(table).toMatch(/whole app .* 400 KB +ok +200 KB$/m);
  });

  it('prints a route with a goal and no budget without ever failing it', () => {
    const routes = [{ name: '/en/users', entry: 'index.html', goalKb: 100, lazy: ['users.tsx', 'en.json'] }];
    const [users] = measure({ manifest, jsFiles, sizeOf, routes });
    expect(users.gzip).toBe(139 * KB);
    expect(users.over).toBe(false);
    expect(formatTable([users], sizeOf, { details: false })).toMatch(
      /\/en\/users .* 139\.0 KB .* — +goal only +100 KB \(not yet\)/,
    );
  });

  it('names another page’s entry a route would load (a light page starting the application)', () => {
    const crossing: Manifest = {
      ...manifest,
      'signup.tsx': { file: 'assets/signup.js', isDynamicEntry: true, imports: ['index.html'] },
    };
    const route = (lazy: string) => ({ name: '/en/x', entry: 'public.html', budgetKb: 120, lazy: [lazy] });
    const [bad] = measure({ manifest: crossing, jsFiles, sizeOf, routes: [route('signup.tsx')] });
    expect(bad.strays).toEqual(['assets/index.js']);
    const [good] = measure({ manifest: crossing, jsFiles, sizeOf, routes: [route('login.tsx')] });
    expect(good.strays).toEqual([]);
  });

  it('refuses a route whose page is not in the build', () => {
    const routes = [{ name: '/en/gone', budgetKb: 120, lazy: ['gone.tsx'] }];
    expect(() => measure({ manifest, jsFiles, sizeOf, routes })).toThrow(/no chunk gone.tsx/);
  });

  it('measures gzip and brotli at their strongest', () => {
    const sizes = compressedSizes(Buffer.from('const a = 1;\n'.repeat(1000)));
    expect(sizes.raw).toBe(13_000);
    expect(sizes.gzip).toBeLessThan(200);
    expect(sizes.brotli).toBeLessThan(sizes.gzip);
  });
});
