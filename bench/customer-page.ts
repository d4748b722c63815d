/**
 * The customer page's loading (DESIGN.md section 6: its licences within 300 ms of navigation on
 * localhost, warm, at 1 and at 200 members, its data in a few API requests). Builds the client (or
 * copies an up-to-date ./dist), seeds a fresh SQLite database (the demo data, a customer of 1 member
 * per customer role, and one of 200 members with pending invitations), starts the portal as the
 * journeys do and drives Debian's Chromium. For each role that sees the page and each size:
 *
 * - cold: a new browser profile (empty cache), signed in through the API, opens the page's address;
 * - warm: the code is in the HTTP cache (an earlier visit), a fresh page opens /about, then the app
 *   navigates to the customer page (a link click, no reload).
 *
 * The time is from the navigation to the first frame that shows the licences' rows (the section an
 * end user sees instead, for an end user, who sees no licences). Layout shift is the sum of the
 * shifts after the navigation. A benchmark, not a test: it prints tables and exits 0 either way,
 * unless it could not measure.
 *
 *   npm run bench:customer-page [-- --runs 5 --role businessOwner --phone --verbose]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import type { MemberRole } from '../common/roles';
import { stopPortal } from '../e2e/helpers/portal-server';
import { launchChromium, startBenchPortal } from './browser-portal';
import { type DB, migrateToLatest, openDatabase } from '../server/db';
import { DEMO_PASSWORD, seedDemoData } from '../server/seed/demo';
import { insertCustomer, insertInvitation, insertMembership } from '../server/modules/customers/store';
import { insertLicence } from '../server/modules/licences/repo';
import { insertUser } from '../server/modules/users/repo';

const BUDGET_MS = 300;
const SIZES = [1, 200] as const;
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    verbose: { type: 'boolean', default: false },
    role: { type: 'string' },
    phone: { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
const VIEWPORT = values.phone ? { width: 390, height: 844 } : { width: 1280, height: 900 };

type Size = (typeof SIZES)[number];
const CLIENT_ROLES = ['businessOwner', 'technicalContact', 'endUser'] as const satisfies readonly MemberRole[];
const STAFF = {
  admin: 'admin@demo.portal',
  accountExecutive: 'ae@demo.portal',
  productManager: 'pm@demo.portal',
  supportEngineer: 'support@demo.portal',
} as const;
type BenchRole = (typeof CLIENT_ROLES)[number] | keyof typeof STAFF;
const ROLES: readonly BenchRole[] = [...CLIENT_ROLES, ...(Object.keys(STAFF) as (keyof typeof STAFF)[])];

const LICENCES: [string, string, number][] = [
  ['graph-server', 'stable', 330],
  ['graph-toolkit', 'beta', 45],
  ['graph-connector', 'stable', -12],
  ['graph-cloud', 'stable', 90],
  ['graph-studio', 'stable', 200],
];

interface Seeded {
  /** the customer of each size, and who signs in as each role there */
  customers: Record<Size, { id: number; accounts: Record<BenchRole, string> }>;
}

const clientEmail = (role: string, size: Size) => `bench-${role.toLowerCase()}-${size}@bench.portal`;

async function seedBench(db: DB): Promise<Seeded> {
  await seedDemoData(db);
  const { passwordHash } = await db
    .selectFrom('users')
    .select('passwordHash')
    .where('email', '=', STAFF.admin)
    .executeTakeFirstOrThrow();
  const ae = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', STAFF.accountExecutive)
    .executeTakeFirstOrThrow();
  const now = new Date().toISOString();
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  /** The customer's licences, one per product of LICENCES, their download secrets starting with `secretPrefix`. */
  const insertLicences = async (customerId: number, secretPrefix: string) => {
    for (const [productKey, accessLevel, end] of LICENCES) {
      await insertLicence(db, {
        customerId,
        productKey,
        hasEntityResolution: 0,
        accessLevel: accessLevel as 'stable',
        startDate: day(-300),
        endDate: day(end),
        data: JSON.stringify({ fixedLicenses: 2 }),
        downloadSecret: `${secretPrefix}-${productKey}`,
        customizationId: null,
        createdAt: now,
      });
    }
  };
  const customers = {} as Seeded['customers'];
  for (const size of SIZES) {
    const customer = await insertCustomer(db, {
      name: `Bench ${size} member${size === 1 ? '' : 's'}`,
      customerKey: `BENCH${String(size).padStart(5, '0')}`,
      selfService: 0,
      billingEmail: `billing-${size}@bench.portal`,
      crmId: null,
      createdAt: now,
    });
    await insertMembership(db, { userId: ae.id, customerId: customer.id, role: 'accountExecutive', createdAt: now });
    await insertLicences(customer.id, `bench-${size}`);
    const accounts = { ...STAFF } as Record<BenchRole, string>;
    // At 1 member each client role is measured on a customer of its own, that member alone.
    for (const role of CLIENT_ROLES) {
      let customerId = customer.id;
      if (size === 1 && role !== 'businessOwner') {
        customerId = (
          await insertCustomer(db, {
            name: `Bench 1 member (${role})`,
            customerKey: `BENCH1${role.slice(0, 4).toUpperCase()}`,
            selfService: 0,
            billingEmail: null,
            crmId: null,
            createdAt: now,
          })
        ).id;
        await insertLicences(customerId, `bench-1-${role}`);
      }
      const user = await insertUser(db, {
        email: clientEmail(role, size),
        fullName: `Bench ${role} ${size}`,
        type: 'client',
        preferredLocale: 'en',
        passwordHash,
      });
      await insertMembership(db, { userId: user.id, customerId, role, createdAt: now });
      accounts[role] = user.email;
    }
    for (let i = CLIENT_ROLES.length; i < size; i++) {
      const user = await insertUser(db, {
        email: `bench-member-${i}@bench.portal`,
        fullName: `Member ${String(i).padStart(3, '0')}`,
        type: 'client',
        preferredLocale: 'en',
        passwordHash,
      });
      const role: MemberRole = i % 3 === 0 ? 'technicalContact' : 'endUser';
      await insertMembership(db, { userId: user.id, customerId: customer.id, role, createdAt: now });
    }
    if (size > 1) {
      for (let i = 0; i < 40; i++) {
        await insertInvitation(db, {
          key: `bench-invitation-${i}-${customer.id}`,
          keySealed: null,
          customerId: customer.id,
          inviterId: ae.id,
          invitedEmail: `bench-invited-${i}@bench.portal`,
          invitedFullName: `Invited ${i}`,
          role: 'endUser',
          locale: 'en',
          state: 'pending',
          selfService: 0,
          signupData: null,
          expiresAt: day(7),
          acceptedAt: null,
          acceptedUserId: null,
          createdAt: now,
        });
      }
    }
    customers[size] = { id: customer.id, accounts };
  }
  return customers as unknown as Seeded;
}

interface Reading {
  ms: number;
  api: number;
  js: number;
  other: number;
  kb: number;
  shift: number;
}

/** What the page asks for from now on: API calls, scripts and the rest, with their bytes on the wire. */
function countRequests(page: Page) {
  const seen: { kind: 'api' | 'js' | 'other'; bytes: Promise<number> }[] = [];
  const listener = (response: import('@playwright/test').Response) => {
    const { pathname, search } = new URL(response.url());
    if (values.verbose && pathname.startsWith('/api/')) console.log(`  ${response.status()} ${pathname}${search}`);
    const kind = pathname.startsWith('/api/') ? 'api' : pathname.endsWith('.js') ? 'js' : 'other';
    seen.push({
      kind,
      bytes: response
        .request()
        .sizes()
        .then((s) => (response.fromServiceWorker() ? 0 : s.responseBodySize + s.responseHeadersSize))
        .catch(() => 0),
    });
  };
  page.on('response', listener);
  return async () => {
    page.off('response', listener);
    const bytes = await Promise.all(seen.map((s) => s.bytes));
    return {
      api: seen.filter((s) => s.kind === 'api').length,
      js: seen.filter((s) => s.kind === 'js').length,
      other: seen.filter((s) => s.kind === 'other').length,
      kb: bytes.reduce((a, b) => a + b, 0) / 1024,
    };
  };
}

const readySelector = (role: BenchRole) =>
  role === 'endUser' ? '[data-testid="nothing-to-manage"]' : '[data-testid="licence-row"]';

/**
 * In every page of the profile: a watch for the ready element (the first frame after it is in the
 * document) and the sum of layout shifts since a given moment.
 */
const PROBE = `
  window.__bench = { shifts: [], since: 0 };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (!e.hadRecentInput) window.__bench.shifts.push([e.startTime, e.value]);
  }).observe({ type: 'layout-shift', buffered: true });
  window.__bench.shift = () => window.__bench.shifts.filter(([t]) => t >= window.__bench.since).reduce((a, [, v]) => a + v, 0);
  window.__bench.whenShown = (selector) => new Promise((resolve) => {
    const done = () => requestAnimationFrame(() => resolve(performance.now()));
    if (document.querySelector(selector)) return done();
    const observer = new MutationObserver(() => {
      if (document.querySelector(selector)) { observer.disconnect(); done(); }
    });
    observer.observe(document, { childList: true, subtree: true });
  });
`;

async function signedIn(browser: Browser, baseUrl: string, email: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: VIEWPORT });
  await context.addInitScript(PROBE);
  const answer = await context.request.post('/api/auth/login', { data: { email, password: DEMO_PASSWORD } });
  if (answer.status() !== 200) throw new Error(`sign-in of ${email}: ${answer.status()} ${await answer.text()}`);
  return context;
}

async function cold(context: BrowserContext, customerId: number, role: BenchRole): Promise<Reading> {
  const page = await context.newPage();
  const requests = countRequests(page);
  const shown = page.evaluate((s) => (window as any).__bench.whenShown(s), readySelector(role)).catch(() => NaN);
  await page.goto(`/en/accounts/${customerId}`);
  await page.locator(readySelector(role)).first().waitFor({ state: 'visible', timeout: 20_000 });
  const ms = (await page.evaluate((s) => (window as any).__bench.whenShown(s), readySelector(role))) as number;
  void shown;
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(200);
  const shift = (await page.evaluate(() => (window as any).__bench.shift())) as number;
  const counts = await requests();
  await page.close();
  return { ms, shift, ...counts };
}

async function warm(context: BrowserContext, customerId: number, role: BenchRole): Promise<Reading> {
  const page = await context.newPage();
  await page.goto('/en/about');
  await page.getByRole('heading', { level: 1 }).first().waitFor({ state: 'visible' });
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(100);
  // A link in the app, as the top bar's or the customer list's, clicked: React Router navigates.
  await page.evaluate((href) => {
    const link = document.createElement('a');
    link.href = href;
    link.id = 'bench-link';
    link.textContent = 'customer';
    document.querySelector('main')?.append(link);
  }, `/en/accounts/${customerId}`);
  const requests = countRequests(page);
  const timing = (await page.evaluate(
    async ({ selector, verbose }) => {
      const bench = (window as any).__bench;
      const start = performance.now();
      bench.since = start;
      // React Router's own navigation: push the address and let its history listener render it.
      const link = document.getElementById('bench-link') as HTMLAnchorElement;
      window.history.pushState({ idx: (window.history.state?.idx ?? 0) + 1, key: 'bench', usr: null }, '', link.href);
      window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
      const shown = (await bench.whenShown(selector)) - start;
      let detail = '';
      if (verbose) {
        const after = performance
          .getEntriesByType('resource')
          .filter((e) => e.startTime >= start)
          .map((e) => {
            const r = e as PerformanceResourceTiming;
            return `${new URL(r.name).pathname.split('/').pop()} ${(r.startTime - start).toFixed(0)}-${(r.responseEnd - start).toFixed(0)}`;
          });
        detail = `  shown ${shown.toFixed(0)} ms; ${after.join(', ')}`;
      }
      return { shown, detail };
    },
    { selector: readySelector(role), verbose: values.verbose ?? false },
  )) as { shown: number; detail: string };
  if (timing.detail) console.log(timing.detail);
  const ms = timing.shown;
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(200);
  const shift = (await page.evaluate(() => (window as any).__bench.shift())) as number;
  const counts = await requests();
  await page.close();
  return { ms, shift, ...counts };
}

/** The middle reading; of an even count, the lower of the two middle ones. */
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
};

async function main() {
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-customer-page-'));
  const databaseUrl = `sqlite:${path.join(runDir, 'bench.db')}`;
  const handle = openDatabase(databaseUrl);
  let seeded: Seeded;
  try {
    await migrateToLatest(handle);
    seeded = { customers: (await seedBench(handle.db)) as unknown as Seeded['customers'] };
  } finally {
    await handle.close();
  }
  const portal = await startBenchPortal(runDir, {
    DATABASE_URL: databaseUrl,
    RATE_LIMIT_LOGIN_PER_MINUTE: '1000',
  });
  const browser = await launchChromium();
  const rows: { size: Size; role: BenchRole; cold: Reading; warm: Reading; warmRuns: number[] }[] = [];
  try {
    // The server's first answers (file cache, JIT) are not the page's.
    const first = await signedIn(browser, portal.baseUrl, STAFF.admin);
    await cold(first, seeded.customers[200].id, 'admin');
    await first.close();
    for (const size of SIZES) {
      for (const role of ROLES.filter((r) => !values.role || r === values.role)) {
        const { id, accounts } = seeded.customers[size];
        const context = await signedIn(browser, portal.baseUrl, accounts[role]);
        try {
          const customerId =
            size === 1 && role !== 'businessOwner' && (CLIENT_ROLES as readonly string[]).includes(role)
              ? await customerOf(context)
              : id;
          const coldReading = await cold(context, customerId, role);
          const warmReadings: Reading[] = [];
          for (let i = 0; i < runs; i++) warmReadings.push(await warm(context, customerId, role));
          const pick = (key: keyof Reading) => median(warmReadings.map((r) => r[key]));
          rows.push({
            size,
            role,
            cold: coldReading,
            warm: {
              ms: pick('ms'),
              api: pick('api'),
              js: pick('js'),
              other: pick('other'),
              kb: pick('kb'),
              shift: Math.max(...warmReadings.map((r) => r.shift)),
            },
            warmRuns: warmReadings.map((r) => r.ms),
          });
        } finally {
          await context.close();
        }
      }
    }
  } finally {
    await browser.close();
    await stopPortal(portal.process);
    fs.rmSync(runDir, { recursive: true, force: true });
  }

  console.log(
    `\nCustomer page on localhost, Chromium, ${VIEWPORT.width}x${VIEWPORT.height}; time to the licences rows (an end user: to the page's section)`,
  );
  console.log(
    `warm: median of ${runs} in-app navigations from /about with the code cached; layout shift: the worst run`,
  );
  console.log(
    '| members | role | cold API | cold JS | cold KB | cold ms | cold shift | warm API | warm JS (cached) | warm KB | warm ms | warm shift | budget ms | result |',
  );
  console.log('|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const { size, role, cold: c, warm: w } of rows) {
    console.log(
      `| ${size} | ${role} | ${c.api} | ${c.js} | ${c.kb.toFixed(0)} | ${c.ms.toFixed(0)} | ${c.shift.toFixed(3)} | ${w.api} | ${w.js} | ${w.kb.toFixed(0)} | ${w.ms.toFixed(0)} | ${w.shift.toFixed(3)} | ${BUDGET_MS} | ${w.ms <= BUDGET_MS && w.shift < 0.1 ? 'pass' : 'FAIL'} |`,
    );
  }
  console.log(
    `\nwarm runs (ms): ${rows.map((r) => `${r.size}/${r.role}: ${r.warmRuns.map((m) => m.toFixed(0)).join(' ')}`).join('; ')}`,
  );
  console.log(`load average while measuring: ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`);
}

/** The one customer of a client user (the 1-member customers of the technical contact and the end user). */
async function customerOf(context: BrowserContext): Promise<number> {
  const me = await context.request.get('/api/auth/me');
  const body = (await me.json()) as { accounts?: { id: number }[] };
  const id = body.accounts?.[0]?.id;
  if (!id) throw new Error(`no customer in /api/auth/me: ${JSON.stringify(body).slice(0, 300)}`);
  return id;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
