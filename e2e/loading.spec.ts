import type { Page, Route } from '@playwright/test';
import { expect, test } from './fixtures';
import { demoAccount } from './helpers/demo';
import { signInThroughApi } from './helpers/session';

const PASSWORD_LOST_CODE = '**/assets/PasswordLostPage-*.js';

/** Holds the matching requests back until `release()` (a slow network for those files only). */
async function holdBack(page: Page, pattern: string | RegExp | ((url: URL) => boolean)) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(pattern, async (route: Route) => {
    await released;
    await route.continue().catch(() => {});
  });
  return release;
}

/** Counts full page loads (document requests), automatic reloads included. */
function countPageLoads(page: Page) {
  const loads: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'document') loads.push(new URL(request.url()).pathname);
  });
  return loads;
}

test('the sign-in page paints itself before any script or style sheet arrives, then works', async ({ page }) => {
  // Its markup is rendered at build time, its style sheet inlined (decision 024).
  const release = await holdBack(page, /\/assets\/public-[^/]*\.(js|css)$/);
  await page.goto('/en/login', { waitUntil: 'commit' });
  await expect(page.getByRole('heading', { name: 'Sign in to the download center' })).toBeVisible();
  await expect
    .poll(() => page.evaluate(() => performance.getEntriesByName('first-contentful-paint').length), {
      timeout: 3_000,
    })
    .toBe(1);

  release();
  // Hydrated: the form checks its fields.
  await expect(page).toHaveTitle('Sign in · Graph Portal');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText('This field is required.').first()).toBeVisible();
});

// Pages without pre-rendered markup (the application's, a reset link) paint their HTML page's loader
// before their script and style sheet arrive.
for (const { page: path, files } of [
  { page: '/en/reset-password/not-a-token', files: /\/assets\/public-[^/]*\.(js|css)$/ },
  { page: '/en/cookies-information', files: /\/assets\/index-[^/]*\.(js|css)$/ },
]) {
  test(`a cold load of ${path} on a slow network paints the loading indicator at once, then the page`, async ({
    page,
  }) => {
    // The page's script and style sheet take their time; the HTML page itself arrives at once.
    const release = await holdBack(page, files);
    await page.goto(path, { waitUntil: 'commit' });

    const boot = page.getByTestId('boot-loader');
    await expect(boot).toBeVisible();
    await expect(boot).toContainText('Graph Portal');
    await expect(boot.getByRole('status')).toContainText('Loading…');
    // Painted, not merely in the document: a style sheet in the head would hold the first paint back.
    await expect
      .poll(() => page.evaluate(() => performance.getEntriesByName('first-contentful-paint').length), {
        timeout: 3_000,
      })
      .toBe(1);

    release();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(boot).toHaveCount(0);
  });
}

test('opening a page whose code is slow to come shows the loader, not the previous page', async ({ page }) => {
  await page.goto('/en/login');
  // the script has taken the page over: the link is the application's, not the browser's
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeEnabled();
  const release = await holdBack(page, PASSWORD_LOST_CODE);

  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page).toHaveURL(/\/en\/password-lost$/);
  await expect(page.getByTestId('loader')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toHaveCount(0);

  release();
  await expect(page.getByRole('heading', { name: 'Forgotten password' })).toBeVisible();
  await expect(page.getByTestId('loader')).toHaveCount(0);
});

test('a page whose code cannot be fetched reloads once, then shows the error page with a way out', async ({ page }) => {
  const loads = countPageLoads(page);
  await page.goto('/en/login');
  // Enabled once the script has taken the page rendered at build time over: a click on the link before
  // that is the browser's own navigation, one more page load than the journey counts.
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeEnabled();
  // As after a new release: the old file name is gone.
  await page.route(PASSWORD_LOST_CODE, (route) => route.fulfill({ status: 404, body: 'Not found' }));

  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  const errorPage = page.getByTestId('error-page');
  await expect(errorPage).toBeVisible();
  await expect(errorPage.getByRole('heading', { name: 'Error', exact: true })).toBeVisible();
  await expect(errorPage.getByRole('alert')).toContainText('This page could not be loaded');
  await expect(errorPage.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/en');
  // One automatic reload to pick up a new release, and no more.
  expect(loads).toEqual(['/en/login', '/en/password-lost']);
  // The top bar stays: the visitor is still in the portal.
  await expect(page.getByTestId('nav-brand')).toBeVisible();

  // Once the file can be fetched again, the reload button leads to the page.
  await page.unroute(PASSWORD_LOST_CODE);
  await errorPage.getByRole('button', { name: 'Reload the page' }).click();
  await expect(page.getByRole('heading', { name: 'Forgotten password' })).toBeVisible();
  expect(loads).toHaveLength(3);
});

test('a page whose code cannot be fetched with the server out of reach keeps the user in the portal, without reloading', async ({
  page,
}) => {
  await signInThroughApi(page, demoAccount('admin'));
  await page.goto('/en');
  await expect(page.getByTestId('nav-users')).toBeVisible();
  const loads = countPageLoads(page);
  // The network or the server gone: no script arrives, not even to ask whether a new release is out.
  await page.route('**/assets/*.js', (route) => route.abort('connectionrefused'));

  await page.getByTestId('nav-users').click();
  const errorPage = page.getByTestId('error-page');
  await expect(errorPage.getByRole('alert')).toContainText('This page could not be loaded');
  // In the portal, under its top bar: no reload, so no browser error page.
  await expect(page.getByTestId('nav-brand')).toBeVisible();
  expect(loads).toEqual([]);

  // Back on line, the reload button leads to the page.
  await page.unroute('**/assets/*.js');
  await errorPage.getByRole('button', { name: 'Reload the page' }).click();
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
  expect(loads).toEqual(['/en/users']);
});

test("the loader gives up at once, in the address's language, when the application's code cannot be fetched", async ({
  page,
}) => {
  await page.route(/\/assets\/index-[^/]*\.js$/, (route) => route.abort('connectionrefused'));
  await page.goto('/fr/cookies-information');
  const failed = page.getByTestId('boot-failed');
  await expect(failed.getByRole('alert')).toHaveText(
    'Le portail n’a pas pu être chargé : vérifiez la connexion et rechargez la page.',
  );
  await expect(page.getByTestId('boot-loader').getByRole('status')).toHaveCount(0);

  await page.unroute(/\/assets\/index-[^/]*\.js$/);
  await failed.getByRole('button', { name: 'Recharger la page' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByTestId('boot-loader')).toHaveCount(0);
});

test('the loader gives up after a few seconds when the code does not come, and the code still arriving replaces it', async ({
  page,
}) => {
  const release = await holdBack(page, /\/assets\/index-[^/]*\.js$/);
  await page.goto('/en/cookies-information', { waitUntil: 'commit' });
  const failed = page.getByTestId('boot-failed');
  await expect(failed.getByRole('alert')).toHaveText(
    'The portal could not be loaded: check the connection and reload the page.',
    { timeout: 15_000 },
  );
  await expect(failed.getByRole('button', { name: 'Reload the page' })).toBeVisible();

  release();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(failed).toHaveCount(0);
});

test('a new search keeps the previous rows dimmed under a loader until the answer comes', async ({ page }) => {
  await signInThroughApi(page, demoAccount('admin'));
  await page.goto('/en/users');
  const table = page.getByTestId('users-table');
  await expect(table).toBeVisible();
  await expect(table).toHaveAttribute('aria-busy', 'false');
  const before = await page.getByTestId('user-row').count();
  expect(before).toBeGreaterThan(1);

  const release = await holdBack(page, (url: URL) => url.pathname === '/api/users' && url.searchParams.has('filter'));
  await page.getByLabel('Search users', { exact: true }).fill('admin@demo.portal');
  await expect(page.getByTestId('loader')).toBeVisible();
  await expect(table).toHaveAttribute('aria-busy', 'true');
  await expect(page.getByTestId('user-row')).toHaveCount(before);

  release();
  await expect(page.getByTestId('user-row')).toHaveCount(1);
  await expect(table).toHaveAttribute('aria-busy', 'false');
  await expect(page.getByTestId('loader')).toHaveCount(0);
});
