import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import { expect, test } from './fixtures';
import { expectNoViolations, scan } from './helpers/axe';
import { demoAccount } from './helpers/demo';
import { ENV, requireEnv } from './helpers/environment';
import { freePort, type PortalServer, startPortal, stopPortal } from './helpers/portal-server';
import { RP_PORTS, type RelyingParty, startRelyingParty } from './helpers/relying-party';
import { PORTAL_ENV, runPaths } from './helpers/run-state';
import { pageWidth } from './helpers/session';

/**
 * Two-factor sign-in in Chromium (docs/security.md, "Two-factor sign-in"). A browser accepts a
 * passkey's relying party only on a domain, so these journeys run on a portal of their own at
 * http://localhost:<port> (the others' is at 127.0.0.1), on a copy of the seeded database, with
 * REQUIRE_2FA_FOR=admin. Passkeys come from Chromium's virtual authenticator. A relying party of
 * docs/oidc.md signs in through this portal too: the second factor applies there as well.
 */

let portal: PortalServer;
const dir = () => path.join(runPaths(requireEnv(ENV.runDir)).workerDir(test.info().workerIndex), 'two-factor');

test.beforeAll(async () => {
  const paths = runPaths(requireEnv(ENV.runDir));
  fs.rmSync(dir(), { recursive: true, force: true });
  fs.mkdirSync(dir(), { recursive: true });
  const database = path.join(dir(), 'e2e.db');
  fs.copyFileSync(paths.seedDatabase, database);
  if (fs.existsSync(`${paths.seedDatabase}-wal`)) fs.copyFileSync(`${paths.seedDatabase}-wal`, `${database}-wal`);
  portal = await startPortal({
    port: await freePort(),
    host: 'localhost',
    logFile: path.join(dir(), 'portal.log'),
    env: {
      ...PORTAL_ENV,
      DATABASE_URL: `sqlite:${database}`,
      DATA_DIR: path.join(dir(), 'data'),
      STATIC_DIR: paths.staticDir,
      SEED_DEMO_DATA: 'false',
      REQUIRE_2FA_FOR: 'admin',
    },
  });
});
test.afterAll(async () => {
  if (portal) await stopPortal(portal.process);
});

/** Chromium's virtual authenticator: a platform passkey that verifies its user at once. */
async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

async function passwordStep(page: Page, email: string, password: string, locale = 'en') {
  await page.goto(`${portal.baseUrl}/${locale}/login`);
  await page.getByLabel(locale === 'fr' ? 'E-mail' : 'Email', { exact: true }).fill(email);
  await page.getByLabel(locale === 'fr' ? 'Mot de passe' : 'Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: locale === 'fr' ? 'Se connecter' : 'Sign in', exact: true }).click();
}

/** The sign-in went through: the page left the login page for the application. */
async function signedIn(page: Page) {
  await page.waitForURL((url) => !url.pathname.endsWith('/login'));
  await expect(page.getByRole('button', { name: /@demo\.portal/ })).toBeVisible();
}

async function signOut(page: Page) {
  await page.context().clearCookies();
}

test('a passkey: added in the settings, then signing in alone, and after the password', async ({ page }) => {
  await virtualAuthenticator(page);
  const { email, password } = demoAccount('supportEngineer');
  await passwordStep(page, email, password);
  await signedIn(page);

  await page.goto(`${portal.baseUrl}/en/settings`);
  const section = page.getByTestId('settings-security');
  await section.getByRole('button', { name: 'Add a passkey' }).click();
  const codes = section.getByTestId('recovery-codes');
  await expect(codes.getByRole('listitem')).toHaveCount(10);
  expectNoViolations(await scan(page, 'settings, sign-in security with recovery codes'));
  await codes.getByRole('button', { name: 'I have saved them' }).click();
  await expect(section.getByTestId('factor-passkey')).toContainText('Passkey 1');
  await expect(section.getByTestId('recovery-codes-left')).toHaveText('10 unused recovery codes left.');

  // the passkey alone
  await signOut(page);
  await page.goto(`${portal.baseUrl}/en/login`);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await signedIn(page);

  // the password, then the passkey
  await signOut(page);
  await passwordStep(page, email, password);
  const step = page.getByTestId('second-factor');
  await expect(step.getByRole('heading', { name: 'Confirm it is you' })).toBeVisible();
  expectNoViolations(await scan(page, 'login, second step'));
  await step.getByRole('button', { name: 'Use your passkey' }).click();
  await signedIn(page);
});

test('an authenticator app, in French on a phone: set up from the QR code, then asked for at sign-in', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const { email, password } = demoAccount('accountExecutive');
  await passwordStep(page, email, password);
  await page.waitForURL((url) => !url.pathname.endsWith('/login'));
  const answer = await page.request.patch(`${portal.baseUrl}/api/auth/me`, { data: { preferredLocale: 'fr' } });
  expect(answer.status()).toBe(200);

  await page.goto(`${portal.baseUrl}/fr/settings`);
  const section = page.getByTestId('settings-security');
  await section.getByRole('button', { name: 'Configurer une application d’authentification' }).click();
  await expect(
    section.getByRole('img', { name: 'QR code à scanner avec votre application d’authentification' }),
  ).toBeVisible();
  const secret = (await section.getByTestId('totp-secret').textContent())!.trim();
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) });
  expectNoViolations(await scan(page, 'settings, authenticator app set-up (fr, 390 px)'));
  await section.getByLabel('Code affiché par l’application').fill(totp.generate());
  await section.getByRole('button', { name: 'Confirmer' }).click();
  await expect(section.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10);
  const width = await pageWidth(page);
  expect(width.scrollWidth).toBeLessThanOrEqual(width.innerWidth);
  await section.getByRole('button', { name: 'Je les ai conservés' }).click();
  await expect(section.getByTestId('factor-totp')).toContainText('Application d’authentification');

  await signOut(page);
  await passwordStep(page, email, password, 'fr');
  const code = page.getByLabel('Code de votre application d’authentification');
  await expect(code).toBeFocused();
  expectNoViolations(await scan(page, 'login, second step (fr, 390 px)'));
  const login = await pageWidth(page);
  expect(login.scrollWidth).toBeLessThanOrEqual(login.innerWidth);
  // the set-up spent the current step's code: the next one, as the app shows it 30 s later
  await code.fill(totp.generate({ timestamp: Date.now() + 30_000 }));
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => url.pathname.startsWith('/fr/') && !url.pathname.endsWith('/login'));
});

test('an admin without a second factor (REQUIRE_2FA_FOR=admin) is led to add one at the next sign-in', async ({
  page,
}) => {
  await virtualAuthenticator(page);
  const { email, password } = demoAccount('admin');
  await passwordStep(page, email, password);
  await expect(page).toHaveURL(/\/en\/settings/);
  await expect(page.getByTestId('two-factor-required')).toContainText('Your account requires a second factor');
  // any other page leads back here, the Users page included
  await page.goto(`${portal.baseUrl}/en/users`);
  await expect(page).toHaveURL(/\/en\/settings/);
  // the address changes before the settings page has rendered: scan the page, not the blank between
  await expect(page.getByTestId('two-factor-required')).toBeVisible();
  expectNoViolations(await scan(page, 'settings, second factor required'));
  // and the API refuses the admin's work until then
  const users = await page.request.get(`${portal.baseUrl}/api/users`);
  expect(users.status()).toBe(403);
  expect((await users.json()).error.code).toBe('two_factor_required');

  await page.getByTestId('settings-security').getByRole('button', { name: 'Add a passkey' }).click();
  await page.getByTestId('recovery-codes').getByRole('button', { name: 'I have saved them' }).click();
  await expect(page.getByTestId('two-factor-required')).toHaveCount(0);
  await page.goto(`${portal.baseUrl}/en/users`);
  await expect(page).toHaveURL(/\/en\/users/);
  // the Users page shows the admin's own factor now
  const row = page.getByTestId('user-row').filter({ hasText: email });
  await expect(row.getByTestId('user-two-factor')).toHaveText('On 1 passkey, authenticator app: no');

  // the next sign-in asks for the passkey
  await signOut(page);
  await passwordStep(page, email, password);
  await page.getByTestId('second-factor').getByRole('button', { name: 'Use your passkey' }).click();
  await signedIn(page);
});

test.describe('a relying party signing in through the portal, for an account with an authenticator app', () => {
  let rp: RelyingParty;
  test.beforeEach(async () => {
    rp = await startRelyingParty(portal.baseUrl, RP_PORTS[test.info().parallelIndex % RP_PORTS.length]);
  });
  test.afterEach(async () => rp?.close());

  test('asks for the second factor before going back, with axe on each page, in English then French', async ({
    page,
  }) => {
    const { email, password } = demoAccount('technicalContact');
    const signIn = await page.request.post(`${portal.baseUrl}/api/auth/login`, { data: { email, password } });
    expect(signIn.status()).toBe(200);
    const started = await page.request.post(`${portal.baseUrl}/api/auth/two-factor/totp`);
    const { secret } = (await started.json()) as { secret: string };
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) });
    const confirmed = await page.request.post(`${portal.baseUrl}/api/auth/two-factor/totp/confirm`, {
      data: { code: totp.generate() },
    });
    expect(confirmed.status()).toBe(200);
    const { recoveryCodes } = (await confirmed.json()) as { recoveryCodes: string[] };
    await signOut(page);

    // English: the login page of the interaction, the second step, the partner's consent
    await page.goto(`${rp.url}/partner/login?locale=en`);
    await expect(page).toHaveURL(/\/en\/login\?interaction=/);
    expectNoViolations(await scan(page, 'login with an OIDC interaction (en)'));
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const step = page.getByTestId('second-factor');
    await expect(step.getByRole('heading', { name: 'Confirm it is you' })).toBeVisible();
    // the password alone went nowhere: still the portal's login page, no session
    await expect(page).toHaveURL(/\/en\/login\?interaction=/);
    expect((await page.request.get(`${portal.baseUrl}/api/auth/me`)).status()).toBe(401);
    expectNoViolations(await scan(page, 'login, second step of an OIDC interaction (en)'));
    await step.getByLabel('Code from your authenticator app').fill(totp.generate({ timestamp: Date.now() + 30_000 }));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/en\/consent\?interaction=/);
    await expect(page.getByRole('heading', { name: 'Allow access to your account' })).toBeVisible();
    expectNoViolations(await scan(page, 'consent (en)'));
    await page.getByRole('button', { name: 'Allow', exact: true }).click();
    await expect(page.getByTestId('rp-user')).toHaveText(email);

    // French, at 390 px, with a recovery code this time
    const locale = await page.request.patch(`${portal.baseUrl}/api/auth/me`, { data: { preferredLocale: 'fr' } });
    expect(locale.status()).toBe(200);
    await signOut(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${rp.url}/partner/login?locale=fr`);
    await expect(page).toHaveURL(/\/fr\/login\?interaction=/);
    expectNoViolations(await scan(page, 'login with an OIDC interaction (fr, 390 px)'));
    await page.getByLabel('E-mail', { exact: true }).fill(email);
    await page.getByLabel('Mot de passe', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
    await expect(step.getByRole('heading', { name: 'Confirmez votre identité' })).toBeVisible();
    await step.getByRole('button', { name: 'Utiliser plutôt un code de secours' }).click();
    expectNoViolations(await scan(page, 'login, second step of an OIDC interaction (fr, 390 px)'));
    await step.getByLabel('Code de secours').fill(recoveryCodes[0]);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/fr\/consent\?interaction=/);
    await expect(page.getByRole('heading', { name: 'Autoriser l’accès à votre compte' })).toBeVisible();
    expectNoViolations(await scan(page, 'consent (fr, 390 px)'));
    const width = await pageWidth(page);
    expect(width.scrollWidth).toBeLessThanOrEqual(width.innerWidth);
    await page.getByRole('button', { name: 'Autoriser', exact: true }).click();
    await expect(page.getByTestId('rp-user')).toHaveText(email);

    // new recovery codes ask for the password again, in a modal
    await page.goto(`${portal.baseUrl}/fr/settings`);
    const section = page.getByTestId('settings-security');
    await section.getByRole('button', { name: 'Générer de nouveaux codes de secours' }).click();
    const modal = page.getByTestId('regenerate-modal');
    await modal.getByLabel('Votre mot de passe actuel').fill('Not-the-password-1');
    await modal.getByRole('button', { name: 'Générer de nouveaux codes de secours' }).click();
    await expect(modal.getByText("Le mot de passe actuel n'est pas correct.")).toBeVisible();
    expectNoViolations(await scan(page, 'settings, password asked again (fr, 390 px)'));
    await modal.getByLabel('Votre mot de passe actuel').fill(password);
    await modal.getByRole('button', { name: 'Générer de nouveaux codes de secours' }).click();
    await expect(section.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10);
  });
});
