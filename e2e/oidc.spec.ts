import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { expectNoViolations, scan } from './helpers/axe';
import { demoAccount } from './helpers/demo';
import { RP_PORTS, type RelyingParty, startRelyingParty } from './helpers/relying-party';
import { pageWidth, signInThroughApi } from './helpers/session';

/**
 * Signing in to another site through the portal (docs/oidc.md): a local relying party using
 * openid-client sends the browser to the portal, the user signs in on the portal's own login page
 * and comes back signed in; logging out of the portal ends the provider's session. In French, at
 * 390 px, with axe on the consent and logout pages.
 */
const owner = demoAccount('businessOwner');
let rp: RelyingParty;

test.beforeEach(async ({ portal }, testInfo) => {
  rp = await startRelyingParty(portal.baseUrl, RP_PORTS[testInfo.parallelIndex % RP_PORTS.length]);
});
test.afterEach(async () => rp?.close());

test.use({ viewport: { width: 390, height: 844 } });

test('signs in to a relying party on the portal login page, and the portal logout ends it', async ({ page }) => {
  await page.goto(`${rp.url}/login?locale=fr`);
  await expect(page).toHaveURL(/\/fr\/login\?interaction=/);
  await page.getByLabel('E-mail', { exact: true }).fill(owner.email);
  await page.getByLabel('Mot de passe', { exact: true }).fill(owner.password);
  await page.getByRole('button', { name: 'Se connecter', exact: true }).click();

  await expect(page.getByTestId('rp-user')).toHaveText(owner.email);
  expect(page.url()).toContain(`${rp.url}/callback`);

  // logging out of the portal logs out of the provider: the relying party sends to the login page again
  await page.goto('/fr/logout');
  await expect(page.getByTestId('logout-page')).toBeVisible();
  await page.goto(`${rp.url}/login?locale=fr`);
  await expect(page).toHaveURL(/\/fr\/login\?interaction=/);
});

test('asks consent for a partner, and confirms an RP-initiated logout, in French at 390 px', async ({ page }) => {
  await signInThroughApi(page, owner);
  // the signed-in user's language decides (spec 2): French for this journey, English again after it
  const setLocale = async (preferredLocale: 'en' | 'fr') =>
    expect((await page.request.patch('/api/auth/me', { data: { preferredLocale } })).status()).toBe(200);
  await setLocale('fr');
  try {
    await consentAndLogout(page);
  } finally {
    await signInThroughApi(page, owner);
    await setLocale('en');
  }
});

async function consentAndLogout(page: Page) {
  await page.goto(`${rp.url}/partner/login?locale=fr`);
  await expect(page).toHaveURL(/\/fr\/consent\?interaction=/);
  await expect(page.getByRole('heading', { name: 'Autoriser l’accès à votre compte' })).toBeVisible();
  await expect(page.getByText('Partner console demande')).toBeVisible();
  expectNoViolations(await scan(page, 'consent fr 390'));
  const width = await pageWidth(page);
  expect(width.scrollWidth).toBeLessThanOrEqual(width.innerWidth);
  await page.getByRole('button', { name: 'Autoriser', exact: true }).click();
  await expect(page.getByTestId('rp-user')).toHaveText(owner.email);

  // the first-party client signs in without a page, then logs out from its own site
  await page.goto(`${rp.url}/login?locale=fr`);
  await expect(page.getByTestId('rp-user')).toHaveText(owner.email);
  await page.goto(`${rp.url}/logout?locale=fr`);
  await expect(page.getByRole('heading', { name: 'Déconnexion' })).toBeVisible();
  expectNoViolations(await scan(page, 'oidc logout fr 390'));
  await page.getByRole('button', { name: 'Se déconnecter', exact: true }).click();
  await expect(page).toHaveURL(`${rp.url}/signed-out?state=bye`);
  // the portal's session ended with the provider's
  expect((await page.request.get('/api/auth/me')).status()).toBe(401);
}
