import type { AddressInfo } from 'node:net';
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { createTestApp, request, TEST_DIALECT, type TestApp } from './test/harness';
import { createUser, login } from './test/factories';

/**
 * GET /metrics (server/metrics.ts, docs/decisions/064): who may scrape it, what it shows, and what it
 * must never show. The pool's gauges are checked on each database: PostgreSQL's pool, SQLite's none.
 */

const TOKEN = 'metrics-test-token-0123456789abcdefghij';
const scrape = (app: FastifyInstance, token: string | null = TOKEN) =>
  app.inject({ url: '/metrics', headers: token === null ? {} : { authorization: `Bearer ${token}` } });

type Labels = Record<string, string>;

/** The series of the text format: name, labels, value. */
function seriesOf(text: string): { name: string; labels: Labels; value: number }[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, key, value]) => [key, value]),
      );
      return { name: match[1], labels, value: Number(match[3]) };
    });
}

/** The value of the series with exactly these labels, or undefined. */
function valueOf(text: string, name: string, labels: Labels = {}): number | undefined {
  const wanted = JSON.stringify(Object.entries(labels).sort());
  return seriesOf(text).find((s) => s.name === name && JSON.stringify(Object.entries(s.labels).sort()) === wanted)
    ?.value;
}

describe('with METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ METRICS_TOKEN: TOKEN });
  });
  afterAll(() => t?.close());

  it('asks for the token: 401 without one, with another, or with a session alone', async () => {
    const admin = await createUser(t.app.ctx.db, { type: 'admin' });
    const cookie = await login(t.app, admin.email);
    const answers = [
      await scrape(t.app, null),
      await scrape(t.app, `${TOKEN}x`),
      await scrape(t.app, TOKEN.slice(0, -1)),
      await request(t.app, cookie, { method: 'GET', url: '/metrics' }),
      await t.app.inject({ url: '/metrics', headers: { authorization: `Basic ${TOKEN}` } }),
    ];
    for (const response of answers) {
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer');
      expect(response.json()).toEqual({ error: { code: 'unauthenticated', message: expect.any(String) } });
      expect(response.body).not.toContain(TOKEN.slice(0, 20));
    }
  });

  it("answers Prometheus' text format, each request under its route's template", async () => {
    await t.app.inject({ url: '/api/customers/12345' });
    await t.app.inject({ url: '/api/customers/678' });
    await t.app.inject({ url: '/api/health' });
    await t.app.inject({ url: '/api/no-such-thing/42' });

    const response = await scrape(t.app);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    const text = response.body;
    expect(text).toContain('# TYPE portal_http_request_duration_seconds histogram');
    const count = (method: string, route: string, status: string) =>
      valueOf(text, 'portal_http_request_duration_seconds_count', { method, route, status_code: status });
    expect(count('GET', '/api/customers/:id', '401')).toBe(2);
    expect(count('GET', '/api/health', '200')).toBe(1);
    expect(count('GET', 'unmatched', '404')).toBe(1);
    // no label carries the id of the URL (a sample's value may hold those digits by chance)
    expect(text).not.toMatch(/\{[^}]*12345[^}]*\}/);
    expect(text).not.toContain('no-such-thing');
    // the buckets are there, cumulative up to +Inf
    const labels = { method: 'GET', route: '/api/customers/:id', status_code: '401' };
    expect(valueOf(text, 'portal_http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(2);
  });

  it('puts no secret and no query string in its labels', async () => {
    const resetToken = 'reset-secret-4f1c2a9b7d';
    const pathSecret = 'invitation-secret-9e8d7c6b';
    await t.app.inject({ url: `/api/auth/check-password-reset?passwordResetToken=${resetToken}` });
    await t.app.inject({ url: `/en/invitation/${pathSecret}?key=${pathSecret}` });
    await t.app.inject({ url: '/api/health?session=s3ss10n-secret' });
    await scrape(t.app, 'wrong-metrics-token-that-is-long-enough-1234');

    const text = (await scrape(t.app)).body;
    for (const secret of [resetToken, pathSecret, 's3ss10n-secret', 'wrong-metrics-token', TOKEN]) {
      expect(text).not.toContain(secret);
    }
    const routes = new Set(seriesOf(text).flatMap((s) => (s.labels.route === undefined ? [] : [s.labels.route])));
    expect(routes).toContain('/api/auth/check-password-reset');
    expect(routes).toContain('/metrics');
    for (const route of routes) expect(route).toMatch(/^(unmatched|\/[\w/:.*-]*)$/);
    for (const s of seriesOf(text)) {
      for (const value of Object.values(s.labels)) expect(value).not.toContain('?');
    }
  });

  it("shows the event loop's delay, memory, and on PostgreSQL only the pool", async () => {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const text = (await scrape(t.app)).body;
    const p99 = valueOf(text, 'nodejs_eventloop_lag_p99_seconds');
    expect(p99).toBeGreaterThan(0);
    expect(p99).toBeLessThan(10);
    expect(valueOf(text, 'nodejs_eventloop_lag_min_seconds')).toBeLessThanOrEqual(p99!);
    expect(valueOf(text, 'process_resident_memory_bytes')).toBeGreaterThan(1024 * 1024);
    if (TEST_DIALECT === 'postgres') {
      expect(valueOf(text, 'portal_db_pool_max_connections')).toBe(10);
      expect(valueOf(text, 'portal_db_pool_connections')).toBeGreaterThanOrEqual(1);
    } else {
      expect(text).not.toContain('portal_db_pool');
    }
  });

  it('offers the job runner its histogram and counter, and reads the queue depth from its counts', async () => {
    const { metrics, jobs, db } = t.app.ctx;
    metrics.jobDuration.observe({ name: 'mail.deliver' }, 0.2);
    metrics.jobFailures.inc({ name: 'purge.sessions' });
    let text = (await scrape(t.app)).body;
    expect(valueOf(text, 'portal_job_duration_seconds_count', { name: 'mail.deliver' })).toBe(1);
    expect(valueOf(text, 'portal_job_failures_total', { name: 'purge.sessions' })).toBe(1);
    expect(text).toContain('# TYPE portal_jobs_queue_depth gauge');

    // a queued job is counted at the scrape, as the engine counts it
    await t.app.ctx.mail.send(
      {
        to: 'queued@example.com',
        template: 'emailChangeTaken',
        locale: 'en',
        data: { link: 'http://portal.test/en/login' },
      },
      db,
    );
    const waiting = (await jobs.counts()).find((c) => c.name === 'mail.deliver' && c.state === 'created');
    expect(waiting?.count).toBeGreaterThanOrEqual(1);
    text = (await scrape(t.app)).body;
    expect(valueOf(text, 'portal_jobs_queue_depth', { name: 'mail.deliver', state: 'created' })).toBe(waiting?.count);
    await jobs.drain();
    text = (await scrape(t.app)).body;
    expect(valueOf(text, 'portal_jobs_queue_depth', { name: 'mail.deliver', state: 'created' })).toBeUndefined();

    // counts that fail (the database is down) cost the gauge, not the scrape
    const counts = Object.getOwnPropertyDescriptor(jobs, 'counts')!;
    jobs.counts = () => Promise.reject(new Error('database unreachable'));
    try {
      const response = await scrape(t.app);
      expect(response.statusCode).toBe(200);
      expect(seriesOf(response.body).filter((s) => s.name === 'portal_jobs_queue_depth')).toEqual([]);
    } finally {
      Object.defineProperty(jobs, 'counts', counts);
    }
  });

  it('never logs the token', async () => {
    const lines: string[] = [];
    const app = await buildApp(
      { ...t.config, logLevel: 'trace' },
      { database: t.database, startBackgroundWork: false, logStream: { write: (line) => lines.push(line) } },
    );
    try {
      expect((await scrape(app)).statusCode).toBe(200);
      expect((await scrape(app, `${TOKEN}-wrong`)).statusCode).toBe(401);
    } finally {
      await app.close();
    }
    expect(lines.join('\n')).toContain('/metrics');
    expect(lines.join('\n')).not.toContain(TOKEN);
  });
});

describe('mails sent and failed', () => {
  let t: TestApp;
  let refusing = false;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo: (_address, _session, callback) =>
      refusing
        ? callback(Object.assign(new Error('Mailbox temporarily unavailable'), { responseCode: 450 }))
        : callback(),
    onData: (stream, _session, callback) => stream.on('end', () => callback()).resume(),
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.server.address() as AddressInfo;
    t = await createTestApp({ METRICS_TOKEN: TOKEN, SMTP_URL: `smtp://127.0.0.1:${port}` });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const send = (to: string) =>
    t.app.ctx.mail.send({
      to,
      template: 'passwordReset',
      locale: 'en',
      data: { fullName: 'Metric', link: 'http://portal.test/en/reset-password/x', validityHours: 1 },
    });

  it('counts each mail delivered and each failed attempt', async () => {
    const counts = async () => {
      const text = (await scrape(t.app)).body;
      return [valueOf(text, 'portal_mails_sent_total'), valueOf(text, 'portal_mail_failures_total')];
    };
    expect(await counts()).toEqual([0, 0]);

    refusing = true;
    await send('refused@example.com');
    expect(await t.app.ctx.jobs.drain()).toBe(1);
    expect(await counts()).toEqual([0, 1]);

    refusing = false;
    await send('one@example.com');
    await send('two@example.com');
    // the refused one waits for its retry: only the two new ones are attempted
    expect(await t.app.ctx.jobs.drain()).toBe(2);
    expect(await counts()).toEqual([2, 1]);
  });
});

describe('without METRICS_TOKEN', () => {
  it('answers 404, whatever the credentials', async () => {
    const t = await createTestApp();
    try {
      for (const token of [null, TOKEN]) {
        const response = await scrape(t.app, token);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({ error: { code: 'not_found' } });
      }
    } finally {
      await t.close();
    }
  });

  it('serves /metrics without a token on the METRICS_BIND listener only, started and stopped with the app', async () => {
    const t = await createTestApp({ METRICS_BIND: '127.0.0.1:0' });
    let base: string;
    try {
      const address = t.app.ctx.metrics.listenAddress();
      expect(address).not.toBeNull();
      base = `http://127.0.0.1:${address!.port}`;
      await t.app.inject({ url: '/api/health' });

      const response = await fetch(`${base}/metrics?from=prometheus`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      const text = await response.text();
      expect(
        valueOf(text, 'portal_http_request_duration_seconds_count', {
          method: 'GET',
          route: '/api/health',
          status_code: '200',
        }),
      ).toBe(1);
      expect((await fetch(`${base}/`)).status).toBe(404);
      expect((await fetch(`${base}/api/health`)).status).toBe(404);
      expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(404);
      // the portal's own port still has no metrics: no token is configured
      expect((await scrape(t.app, null)).statusCode).toBe(404);
    } finally {
      await t.close();
    }
    expect(t.app.ctx.metrics.listenAddress()).toBeNull();
    await expect(fetch(`${base}/metrics`)).rejects.toThrow();
  });

  it('refuses to start when the METRICS_BIND address is taken', async () => {
    const first = await createTestApp({ METRICS_BIND: '127.0.0.1:0' });
    try {
      const { port } = first.app.ctx.metrics.listenAddress()!;
      const bind = { host: '127.0.0.1', port };
      const second = await buildApp(
        { ...first.config, metrics: { token: null, bind } },
        { database: first.database, startBackgroundWork: false },
      );
      await expect(second.ready()).rejects.toThrow(/EADDRINUSE/);
      await second.close();
    } finally {
      await first.close();
    }
  });
});

// Registered in the PostgreSQL pass only (the SQLite pass checks there is no pool gauge, above): a
// test that exists in one pass is not a skipped one in the other.
if (TEST_DIALECT === 'postgres')
  describe("PostgreSQL's pool", () => {
    it('shows busy, idle and waiting connections', async () => {
      const t = await createTestApp({ METRICS_TOKEN: TOKEN });
      // A session outside the pool holds a lock the pool's queries wait for: they stay busy until it lets go.
      const holder = new pg.Client({ connectionString: t.config.databaseUrl });
      await holder.connect();
      try {
        await holder.query('select pg_advisory_lock(6464)');
        const { db } = t.app.ctx;
        // twelve queries on a pool of ten: ten hold a connection, two wait for one
        const blocked = Array.from({ length: 12 }, () => sql`select pg_advisory_xact_lock_shared(6464)`.execute(db));
        const settled = () => {
          const usage = t.database.poolUsage();
          return usage?.total === 10 && usage.idle === 0 && usage.waiting === 2;
        };
        for (let i = 0; i < 500 && !settled(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
        let text = (await scrape(t.app)).body;
        expect(valueOf(text, 'portal_db_pool_connections')).toBe(10);
        expect(valueOf(text, 'portal_db_pool_idle_connections')).toBe(0);
        expect(valueOf(text, 'portal_db_pool_waiting_queries')).toBe(2);

        await holder.query('select pg_advisory_unlock(6464)');
        await Promise.all(blocked);
        text = (await scrape(t.app)).body;
        expect(valueOf(text, 'portal_db_pool_waiting_queries')).toBe(0);
        // all ten back, but for the one the scrape's own job count (a query) may be holding as it is read
        expect(valueOf(text, 'portal_db_pool_idle_connections')).toBeGreaterThanOrEqual(9);
      } finally {
        await holder.end();
        await t.close();
      }
    });
  });

describe('configuration', () => {
  const production = {
    NODE_ENV: 'production',
    SESSION_SECRET: 'a-production-session-secret-of-enough-length',
    SMTP_URL: 'smtp://mail.example.com:587',
    SEED_DEMO_DATA: 'false',
    PAYMENT_TEST_CHECKOUT: 'true',
  };

  it('leaves metrics off by default, in production too', () => {
    expect(loadConfig(production).metrics).toEqual({ token: null, bind: null });
  });

  it('reads the token and the listener address', () => {
    expect(loadConfig({ METRICS_TOKEN: TOKEN, METRICS_BIND: '0.0.0.0:9464' }).metrics).toEqual({
      token: TOKEN,
      bind: { host: '0.0.0.0', port: 9464 },
    });
    expect(loadConfig({ METRICS_BIND: '[::1]:9464' }).metrics.bind).toEqual({ host: '::1', port: 9464 });
    expect(loadConfig({ METRICS_BIND: 'metrics.internal:9100' }).metrics.bind).toEqual({
      host: 'metrics.internal',
      port: 9100,
    });
  });

  it('refuses a short or unsendable token and a wrong address, without printing the token', () => {
    for (const [name, value] of [
      ['METRICS_TOKEN', 'short-metrics-secret'],
      ['METRICS_TOKEN', 'a token with spaces that is long enough to pass'],
      ['METRICS_BIND', '9464'],
      ['METRICS_BIND', 'localhost'],
      ['METRICS_BIND', '127.0.0.1:70000'],
      ['METRICS_BIND', 'http://127.0.0.1:9464'],
    ]) {
      let error: unknown;
      try {
        loadConfig({ [name]: value });
      } catch (caught) {
        error = caught;
      }
      expect(error, `${name}=${value}`).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain(name);
      if (name === 'METRICS_TOKEN') expect((error as Error).message).not.toContain(value);
    }
  });
});

describe('requests under way', () => {
  it('are counted from their start to their answer or their abandon, for the job runner', async () => {
    const t = await createTestApp();
    try {
      await t.app.inject({ url: '/api/health' });
      await t.app.inject({ url: '/api/no-such-route' });
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: '{',
        headers: { 'content-type': 'application/json' },
      });
      expect(t.app.ctx.foreground.requests).toBe(0);

      // a request whose body is still coming is under way; dropped, it counts no more
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as AddressInfo;
      const socket = net.connect(port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(
        'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"em',
      );
      const until = async (check: () => boolean) => {
        for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
        return check();
      };
      expect(await until(() => t.app.ctx.foreground.requests === 1)).toBe(true);
      socket.destroy();
      expect(await until(() => t.app.ctx.foreground.requests === 0)).toBe(true);
    } finally {
      await t.close();
    }
  });
});
