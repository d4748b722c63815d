import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';
import { LOCALES, type Locale } from '../../common/roles';
import { cutButtonLabels } from './ui';

/**
 * The rules of WCAG 2.1 levels A and AA, as axe-core tags them, and axe's best practices (headings in
 * order, every content inside a landmark, one main, ...): all of them are kept at zero.
 */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/**
 * The landmark rules of the best practices, which read the whole page even when a scan reads what was
 * just opened: a dialog or a menu must not add a second banner or an unnamed duplicate landmark, nor
 * content outside every landmark (`region`: a menu Mantine renders at the end of the body, outside the
 * header that opened it).
 */
const LANDMARK_RULES = ['landmark-no-duplicate-banner', 'landmark-banner-is-top-level', 'landmark-unique', 'region'];

/**
 * WCAG 2.5.3 "Label in Name" (level A): the visible text of a control is part of its accessible name.
 * axe-core 4.14 runs it with the WCAG 2.1 A tag; 4.13 and before tagged it experimental and left it
 * out of a run by tags, so it is also asked for by name: an older axe-core cannot drop it silently.
 */
const LABEL_IN_NAME_RULES = ['label-content-name-mismatch'];

/** A desktop and a phone (the width of an iPhone 12 to 15). */
export const VIEWPORTS = [
  { name: '1280', width: 1280, height: 800 },
  { name: '390', width: 390, height: 844 },
] as const;

export const SCAN_LOCALES: readonly Locale[] = LOCALES;

/**
 * Resizes the page and waits for the layout that depends on the width in script (media-query hooks)
 * to render: two animation frames after the resize, then no transition running.
 */
export async function resize(page: Page, viewport: { width: number; height: number }): Promise<void> {
  await page.setViewportSize({ width: viewport.width, height: viewport.height });
  await page.evaluate(
    () => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))),
  );
  await settle(page);
}

/** Waits until no CSS transition or animation runs, so axe reads final colours, not a fade. */
async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== 'running' || animation.effect === null),
  );
}

/**
 * How each scan's AxeBuilder is made. Legacy mode runs axe.run() in the page itself: the page has no
 * frame, and the default mode gathers its results in a blank page opened for each scan. axe-core
 * (650 KB of script) goes into a document once: AxeBuilder evaluates its source at every analyze(),
 * which on a loaded machine took seconds a scan, so once the document has it the source given is an
 * empty statement.
 */
async function builderOptions(page: Page): Promise<{ page: Page; axeSource?: string }> {
  const present = await page.evaluate(() => typeof (window as { axe?: { run?: unknown } }).axe?.run === 'function');
  return present ? { page, axeSource: ';' } : { page };
}

/**
 * Runs axe on the page as it is and answers one line per violation (rule, impact, targets), and one
 * per button whose label is cut, labelled with `where`, so that one run lists everything to fix.
 *
 * `region`: the CSS selectors of what was just opened (a modal, a menu, a toast) over a page that is
 * scanned on its own elsewhere. The WCAG rules then read that region only; the landmark rules still
 * read the whole page, since what they catch (a second banner, a duplicate landmark) is the region
 * against the page around it.
 */
export async function scan(page: Page, where: string, region?: readonly string[]): Promise<string[]> {
  await expect(page.getByTestId('loader')).toHaveCount(0);
  // the customer page mounts the sections below its first screen in a second render: scan them too
  await expect(page.getByTestId('account-page-below-loading')).toHaveCount(0);
  await settle(page);
  const builders: AxeBuilder[] = [];
  const options = await builderOptions(page);
  // The extra rules first: withTags() keeps the options and sets which tags run.
  const wcag = new AxeBuilder(options)
    .options({
      rules: Object.fromEntries(
        [...(region ? [] : LANDMARK_RULES), ...LABEL_IN_NAME_RULES].map((rule) => [rule, { enabled: true }]),
      ),
      // Only violations are reported in full: passes and incomplete checks would only slow the run.
      resultTypes: ['violations'],
    })
    .withTags(WCAG_TAGS);
  if (region) {
    for (const selector of region) wcag.include(selector);
    // options() replaces the options, withRules() then sets which rules run: in this order
    builders.push(wcag, new AxeBuilder(options).options({ resultTypes: ['violations'] }).withRules(LANDMARK_RULES));
  } else builders.push(wcag);
  const violations = [];
  for (const builder of builders) violations.push(...(await builder.setLegacyMode(true).analyze()).violations);
  // no action's label is cut either, in the region or around it (decision 088)
  const cut = (await cutButtonLabels(page)).map((button) => `${where}: label cut on ${button}`);
  return violations
    .map((violation) => {
      const targets = violation.nodes.map((node) => node.target.join(' ')).join(' | ');
      const summary = violation.nodes[0]?.failureSummary?.split('\n').slice(1, 2).join('').trim() ?? '';
      return `${where}: ${violation.id} (${violation.impact ?? 'unknown'}) on ${targets}${summary ? ` - ${summary}` : ''}`;
    })
    .concat(cut);
}

/** Fails with every violation found, one per line. */
export function expectNoViolations(violations: readonly string[]): void {
  expect(violations, `axe violations:\n${violations.join('\n')}`).toEqual([]);
}

// The journeys' one way to sign in through the API, also offered here to the scans.
export { signInThroughApi } from './session';

/** The profile's language decides the locale of every page (spec 2), so a scan in French sets it. */
export async function setPreferredLocale(page: Page, locale: Locale): Promise<void> {
  const answer = await page.request.patch('/api/auth/me', { data: { preferredLocale: locale } });
  expect(answer.status(), `PATCH /api/auth/me: ${await answer.text()}`).toBe(200);
}

/**
 * Opens `path` under `locale` and waits for the page's own content (not the loader).
 *
 * From a page of the signed-in application in the same language, the application's own router goes
 * there (the address pushed, then the `popstate` it listens to), as a click on a link would: the
 * document, its scripts and the axe-core it was given stay, where a load would fetch, run and give
 * them again. Once the previous page's heading has left the document the new page is there; should
 * it not leave (the same page component at another address), the page is loaded instead.
 */
export async function openPage(page: Page, locale: Locale, path: string, ready?: (page: Page) => Locator) {
  const target = `/${locale}${path === '/' ? '' : path}`;
  if (!(await navigateInApp(page, locale, target))) await page.goto(target);
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  if (ready) await expect(ready(page).first()).toBeVisible();
}

/** How long the previous page's heading may take to leave after an in-application navigation. */
const IN_APP_NAVIGATION_MS = 3_000;

async function navigateInApp(page: Page, locale: Locale, target: string): Promise<boolean> {
  const url = page.url();
  // the same address again is a reload: the page starts afresh, as before
  if (!url.startsWith('http') || !new URL(url).pathname.startsWith(`/${locale}`)) return false;
  if (new URL(url).pathname === target) return false;
  if ((await page.getByTestId('user-menu').count()) === 0) return false;
  const heading = await page
    .locator('h1')
    .first()
    .elementHandle({ timeout: 1_000 })
    .catch(() => null);
  if (heading === null) return false;
  await page.evaluate((address) => {
    window.history.pushState(null, '', address);
    window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
  }, target);
  const left = await page
    .waitForFunction((previous) => !previous.isConnected, heading, { timeout: IN_APP_NAVIGATION_MS })
    .then(() => true)
    .catch(() => false);
  await heading.dispose();
  return left;
}
