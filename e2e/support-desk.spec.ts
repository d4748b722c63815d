import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { SupportDesk } from '../server/test/support-desk';
import { expectNoViolations, scan } from './helpers/axe';
import { demoAccount } from './helpers/demo';
import { ENV, requireEnv } from './helpers/environment';
import { freePort, type PortalServer, startPortal, stopPortal } from './helpers/portal-server';
import { PORTAL_ENV, runPaths } from './helpers/run-state';
import { pageWidth } from './helpers/session';
import { expect, test } from './fixtures';

/**
 * The support desk's sign-on (docs/decisions/072) in Chromium: a visitor the desk sends to the portal
 * signs in on the portal's login page, whose title says "support", and lands back on the desk signed
 * in, the token having gone by a posted form. The desk is a local page (server/test/support-desk.ts)
 * and the portal one of this file's own, configured with the desk's address and shared secret.
 */

const SECRET = 'journey-desk-9e2c4a7f1b5d8e3a6c0f2b4d7a9e1c3f';
const desk = new SupportDesk(SECRET);
let portal: PortalServer;

// eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a hook uses from this pattern
test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(120_000);
  await desk.listen();
  const paths = runPaths(requireEnv(ENV.runDir));
  const dir = testInfo.outputPath('desk-portal');
  fs.mkdirSync(dir, { recursive: true });
  const database = path.join(dir, 'e2e.db');
  fs.copyFileSync(paths.seedDatabase, database);
  const dataDir = path.join(dir, 'data');
  if (fs.existsSync(paths.seedData)) fs.cpSync(paths.seedData, dataDir, { recursive: true });
  portal = await startPortal({
    port: await freePort(),
    logFile: path.join(dir, 'portal.log'),
    env: {
      ...PORTAL_ENV,
      DATABASE_URL: `sqlite:${database}`,
      DATA_DIR: dataDir,
      STATIC_DIR: paths.staticDir,
      SEED_DEMO_DATA: 'false',
      ...desk.env(),
    },
  });
});

test.afterAll(async () => {
  if (portal) await stopPortal(portal.process);
  await desk.close();
});

/** From the desk's "sign in" link to the desk's page, signed in, through the portal's login page. */
async function roundTrip(
  page: Page,
  texts: { locale: string; title: string; email: string; password: string; submit: string },
) {
  await page.setViewportSize({ width: 390, height: 844 });
  const target = `${desk.origin}/hc/requests/42`;
  const handOff = `${portal.baseUrl}/api/jwt/redirect?to=${encodeURIComponent(target)}`;
  await page.goto(handOff);
  await expect(page).toHaveURL(`${portal.baseUrl}/${texts.locale}/login?sso=${encodeURIComponent(target)}`);
  await expect(page.getByRole('heading', { level: 1, name: texts.title })).toBeVisible();
  const { scrollWidth, innerWidth } = await pageWidth(page);
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  expectNoViolations(await scan(page, 'login page for the support desk'));

  const account = demoAccount('businessOwner');
  const posted = page.waitForRequest((request) => request.url() === `${desk.origin}/access/jwt`);
  await page.getByLabel(texts.email).fill(account.email);
  await page.getByLabel(texts.password).fill(account.password);
  await page.getByRole('button', { name: texts.submit, exact: true }).click();
  const post = await posted;
  expect(post.method()).toBe('POST');
  expect(post.postData()).toMatch(/^jwt=[\w-]+\.[\w-]+\.[\w-]+&return_to=/);

  await expect(page.getByTestId('desk-user')).toHaveText(`Signed in to the desk as ${account.email}`);
  expect(page.url()).toBe(target);
  expect(desk.accepted.at(-1)).toMatchObject({ email: account.email, external_id: expect.any(String) });
  // the token went in the posted form only: no address the browser visited carries it
  expect(page.url()).not.toContain('jwt=');
}

test.describe('support desk sign-on, in English', () => {
  test('a visitor signs in on the portal and lands back on the desk, signed in', async ({ page }) => {
    await roundTrip(page, {
      locale: 'en',
      title: 'Sign in to support',
      email: 'Email',
      password: 'Password',
      submit: 'Sign in',
    });
  });
});

test.describe('support desk sign-on, in French', () => {
  test.use({ locale: 'fr-FR' });

  test('a French visitor gets the French login page and lands back on the desk', async ({ page }) => {
    await roundTrip(page, {
      locale: 'fr',
      title: 'Connexion au support',
      email: 'E-mail',
      password: 'Mot de passe',
      submit: 'Se connecter',
    });
  });
});
