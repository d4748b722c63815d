import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Config } from './config';
import type { Logger } from './context';
import type { PoolUsage } from './db';
import type { JobRunner } from './jobs/types';

/**
 * The portal's metrics in Prometheus' text format, scraped at `GET /metrics` (docs/operations.md,
 * docs/decisions/064). Each app has a registry of its own, never prom-client's global one: the tests
 * build many apps in one process, and each must count its own requests.
 *
 * What is exported, and who fills it:
 *
 * | Name | Type, labels | Filled by |
 * |---|---|---|
 * | `portal_http_request_duration_seconds` | histogram; `method`, `route`, `status_code` | plugins/metrics.ts, each answer |
 * | `nodejs_eventloop_lag_{min,max,mean,p50,p90,p99}_seconds` | gauges, since the previous scrape | the event loop monitor |
 * | `process_resident_memory_bytes`, `nodejs_heap_size_used_bytes` | gauges | read at the scrape |
 * | `portal_db_pool_connections`, `_idle_connections`, `_waiting_queries`, `_max_connections` | gauges | PostgreSQL's pool, read at the scrape (none on SQLite) |
 * | `portal_mails_sent_total` | counter | mail/index.ts, each mail delivered |
 * | `portal_mail_failures_total` | counter | mail/index.ts, each failed delivery attempt (a mail is tried up to 10 times) |
 * | `portal_jobs_queue_depth` | gauge; `name`, `state` | read at the scrape from `ctx.jobs.counts()`, when the runner has it |
 * | `portal_job_duration_seconds` | histogram; `name` | the job runner: `ctx.metrics.jobDuration.observe({ name }, seconds)` per run |
 * | `portal_job_failures_total` | counter; `name` | the job runner: `ctx.metrics.jobFailures.inc({ name })` per failed run |
 *
 * `route` is the route's template (`/api/customers/:id`), or `unmatched` for a path no route has, so
 * neither an id nor a query string (a token, a secret) ever becomes a label. Every label's values
 * come from the code: the set of series stays bounded whatever clients send.
 */

/** How long a scrape waits for the job counts (a query) before it goes without them. */
const JOB_COUNTS_WAIT_MS = 1_000;

/** How many jobs of one name are in one state (queued, running, failed…), as the runner counts them. */
interface JobCount {
  name: string;
  state: string;
  count: number;
}

/** The job runner, which counts its jobs per name and state (decision 063). */
interface CountingRunner {
  counts?: () => Promise<readonly JobCount[]> | readonly JobCount[];
}

export interface AppMetrics {
  readonly registry: Registry;
  readonly httpRequestDuration: Histogram<'method' | 'route' | 'status_code'>;
  readonly mailsSent: Counter;
  readonly mailFailures: Counter;
  readonly jobDuration: Histogram<'name'>;
  readonly jobFailures: Counter<'name'>;
  /** the text a scrape gets, and its media type */
  render(): Promise<string>;
  readonly contentType: string;
  /** Starts the event loop monitor, and the METRICS_BIND listener when configured (the app's onReady). */
  start(): Promise<void>;
  /** Stops both (the app's onClose); nothing keeps running afterwards. */
  stop(): Promise<void>;
  /** where the METRICS_BIND listener listens once started (the port the system chose for port 0) */
  listenAddress(): AddressInfo | null;
}

/** What the delivery of mails counts (mail/index.ts). */
export type MailMetrics = Pick<AppMetrics, 'mailsSent' | 'mailFailures'>;

/** From 5 ms to 2 minutes: API calls take milliseconds, downloads and uploads may take minutes. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120];
const JOB_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900];
/** The event loop monitor's sampling period, in ms (prom-client's default too). */
const EVENT_LOOP_RESOLUTION_MS = 10;

export function createMetrics(deps: {
  config: Config;
  log: Logger;
  poolUsage: () => PoolUsage | null;
  jobs: JobRunner;
}): AppMetrics {
  const { config, log, poolUsage } = deps;
  const jobs = deps.jobs as JobRunner & CountingRunner;
  const registry = new Registry();
  const registers = [registry];

  const httpRequestDuration = new Histogram({
    name: 'portal_http_request_duration_seconds',
    help: 'Time from a request to the end of its answer, by method, route template and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: HTTP_BUCKETS,
    registers,
  });

  // The event loop's delay since the previous scrape. The first gauge's collect reads the monitor and
  // starts its next period; the registry collects the gauges in order, so the others show that reading.
  let eventLoop: IntervalHistogram | null = null;
  let lag: Record<string, number> | null = null;
  const LAG_STATS: Record<string, (h: IntervalHistogram) => number> = {
    min: (h) => h.min,
    max: (h) => h.max,
    mean: (h) => h.mean,
    p50: (h) => h.percentile(50),
    p90: (h) => h.percentile(90),
    p99: (h) => h.percentile(99),
  };
  const readLag = (): Record<string, number> | null => {
    // no sample yet (just started, or scraped twice within 10 ms): min would read as 2^63
    if (!eventLoop || eventLoop.count === 0) return null;
    const monitor = eventLoop;
    const reading = Object.fromEntries(Object.entries(LAG_STATS).map(([stat, read]) => [stat, read(monitor) / 1e9]));
    monitor.reset();
    return reading;
  };
  Object.keys(LAG_STATS).forEach((stat, index) => {
    new Gauge({
      name: `nodejs_eventloop_lag_${stat}_seconds`,
      help: `The event loop's delay since the previous scrape: ${stat}, in seconds.`,
      registers,
      collect() {
        if (index === 0) lag = readLag();
        if (lag) this.set(lag[stat]);
      },
    });
  });

  new Gauge({
    name: 'process_resident_memory_bytes',
    help: 'Resident memory of the process, in bytes.',
    registers,
    collect() {
      this.set(process.memoryUsage.rss());
    },
  });
  new Gauge({
    name: 'nodejs_heap_size_used_bytes',
    help: "The JavaScript heap's used size, in bytes.",
    registers,
    collect() {
      this.set(process.memoryUsage().heapUsed);
    },
  });

  if (poolUsage()) {
    const poolGauge = (name: string, help: string, read: (usage: PoolUsage) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          const usage = poolUsage();
          if (usage) this.set(read(usage));
        },
      });
    poolGauge('portal_db_pool_connections', 'PostgreSQL connections the pool holds, busy or idle.', (u) => u.total);
    poolGauge('portal_db_pool_idle_connections', 'PostgreSQL connections of the pool that are idle.', (u) => u.idle);
    poolGauge(
      'portal_db_pool_waiting_queries',
      'Queries waiting for a connection: the pool is at its size and every connection is busy.',
      (u) => u.waiting,
    );
    poolGauge('portal_db_pool_max_connections', "The pool's size: the most connections it opens.", (u) => u.max);
  }

  const mailsSent = new Counter({
    name: 'portal_mails_sent_total',
    help: 'Mails handed to the SMTP server (or the local mailbox).',
    registers,
  });
  const mailFailures = new Counter({
    name: 'portal_mail_failures_total',
    help: 'Delivery attempts that failed; a mail is tried again later, up to 10 times.',
    registers,
  });

  new Gauge({
    name: 'portal_jobs_queue_depth',
    help: 'Jobs of each name in each state, as the job runner counts them.',
    labelNames: ['name', 'state'] as const,
    registers,
    async collect() {
      this.reset();
      if (!jobs.counts) return;
      const counting = Promise.resolve(jobs.counts());
      // counted later or never: a failure then is the scrape's no more
      counting.catch(() => {});
      let bound: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        bound = setTimeout(() => reject(new Error('the job counts took over a second')), JOB_COUNTS_WAIT_MS);
      });
      try {
        // a pool with no free connection (when metrics matter most) costs this gauge, not the scrape
        for (const { name, state, count } of await Promise.race([counting, late])) this.set({ name, state }, count);
      } catch (error) {
        // a scrape without this gauge rather than no scrape at all (the database may be down)
        log.warn({ reason: error instanceof Error ? error.message : String(error) }, 'job counts unavailable');
      } finally {
        clearTimeout(bound);
      }
    },
  });
  const jobDuration = new Histogram({
    name: 'portal_job_duration_seconds',
    help: 'How long each run of a job took, by job name.',
    labelNames: ['name'] as const,
    buckets: JOB_BUCKETS,
    registers,
  });
  const jobFailures = new Counter({
    name: 'portal_job_failures_total',
    help: 'Runs of a job that failed, by job name.',
    labelNames: ['name'] as const,
    registers,
  });

  const render = () => registry.metrics();
  let listener: http.Server | null = null;

  /** The METRICS_BIND listener: /metrics and nothing else, no token (the address is kept private). */
  function listen(bind: { host: string; port: number }): Promise<http.Server> {
    const server = http.createServer((request, response) => {
      const path = (request.url ?? '').split('?')[0];
      if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
        response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found\n');
        return;
      }
      render().then(
        (text) => {
          response.writeHead(200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' });
          response.end(request.method === 'HEAD' ? undefined : text);
        },
        (error: unknown) => {
          log.error({ err: error }, 'metrics could not be collected');
          response.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Metrics unavailable\n');
        },
      );
    });
    server.headersTimeout = config.timeouts.headersMs;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(bind.port, bind.host, () => {
        server.off('error', reject);
        resolve(server);
      });
    });
  }

  return {
    registry,
    httpRequestDuration,
    mailsSent,
    mailFailures,
    jobDuration,
    jobFailures,
    render,
    contentType: registry.contentType,

    async start() {
      if (!eventLoop) {
        eventLoop = monitorEventLoopDelay({ resolution: EVENT_LOOP_RESOLUTION_MS });
        eventLoop.enable();
      }
      if (config.metrics.bind && !listener) {
        listener = await listen(config.metrics.bind);
        const { address, port } = listener.address() as AddressInfo;
        log.info({ address, port }, 'metrics served at /metrics on METRICS_BIND');
      }
    },

    async stop() {
      eventLoop?.disable();
      eventLoop = null;
      const server = listener;
      listener = null;
      if (server) {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          // a scraper's keep-alive connection would hold close() open until it times out
          server.closeAllConnections();
        });
      }
    },

    listenAddress: () => (listener?.address() as AddressInfo | null) ?? null,
  };
}
