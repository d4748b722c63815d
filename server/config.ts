import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { STAFF_TYPES, type StaffType } from '../common/roles';
import type { S3Options } from './integrations/storage/s3';
import { type OidcConfig, oidcCookieKeys, parseOidcClients } from './modules/oidc/clients-config';
import { type CrmConfig, readSupportAndCrm, type SupportDeskConfig } from './config-support-crm';

/**
 * Configuration from the environment, validated at start. Every variable has an embedded default
 * that runs on one machine (SQLite under ./data, local mailbox, local files); docs/configuration.md
 * lists them.
 */
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const int = (def: number) => z.coerce.number().int().min(0).default(def);
/** `host:port` of the metrics listener: a name or IPv4 address, or an IPv6 address in brackets. */
const METRICS_BIND = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/;

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    HOST: z.string().default('127.0.0.1'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    BASE_URL: z.url({ message: 'must be an absolute URL such as http://localhost:3000' }).optional(),
    DATABASE_URL: z.string().min(1).default('sqlite:./data/portal.db'),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
      .optional(),
    MAIL_FROM: z.string().default('Portal <no-reply@localhost>'),
    NODE_NAME: z.string().trim().min(1).max(200).optional(),
    SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    // the secrets SESSION_SECRET replaced, newest first (docs/security.md): what they sealed still opens
    SESSION_SECRET_PREVIOUS: z
      .string()
      .optional()
      .transform((raw) =>
        (raw ?? '')
          .split(',')
          .map((secret) => secret.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.string().min(32, 'each secret must be at least 32 characters'))),
    // a start whose secrets open no stored licence signing key makes a new one only when told to
    ALLOW_NEW_SIGNING_KEY: bool.default(false),
    TRUST_PROXY: z.string().default('false'),
    SESSION_LIFETIME_DAYS: z.coerce.number().positive().max(365).default(30),
    DATA_DIR: z.string().default('./data'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    RECAPTCHA_SITE_KEY: z.string().optional(),
    RECAPTCHA_SECRET_KEY: z.string().optional(),
    CAPTCHA_COST: z.coerce.number().int().min(1).max(1_000_000).default(1000),
    DOWNLOAD_DIGEST_MINUTES: z.coerce
      .number()
      .int()
      .min(1)
      .max(7 * 24 * 60)
      .default(60),
    CAPTCHA_MAX_NUMBER: z.coerce.number().int().min(10).max(1_000_000).default(2000),
    RATE_LIMIT_LOGIN_PER_MINUTE: int(30),
    RATE_LIMIT_PASSWORD_RESET_PER_MINUTE: int(10),
    RATE_LIMIT_SIGNUP_PER_MINUTE: int(10),
    RATE_LIMIT_INVITATION_PER_MINUTE: int(30),
    RATE_LIMIT_DOWNLOAD_SECRET_PER_MINUTE: int(10),
    SIGNUP_ANSWER_FLOOR_MS: z.coerce.number().int().min(0).max(10_000).default(300),
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, 'must start with redis://')
      .optional(),
    DEV_MAILBOX: bool.optional(),
    SEED_DEMO_DATA: bool.optional(),
    CHECK_RESPONSES: bool.optional(),
    SUPPORT_URL: z.url().default('https://support.example.com'),
    ACADEMY_URL: z.url().default('https://academy.example.com'),
    CONTACT_EMAIL: z.email().default('support@example.com'),
    LEGAL_BASE_URL: z.url().optional(),
    STATIC_DIR: z.string().default('./dist'),
    HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(20_000),
    BODY_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(60_000),
    LICENCE_SIGNING_KEY: z.string().optional(),
    LICENCE_SIGNING_KEY_PATH: z.string().optional(),
    ARTIFACTS_DIR: z.string().optional(),
    ARTIFACT_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1)
      .default(10 * 1024 ** 3),
    S3_BUCKET: z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
        'must be a bucket name: 3 to 63 lower-case letters, digits, dots or dashes',
      )
      .optional(),
    S3_ENDPOINT: z.url({ message: 'must be an absolute URL such as https://s3.example.com' }).optional(),
    S3_REGION: z.string().trim().min(1).default('us-east-1'),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    S3_FORCE_PATH_STYLE: bool.default(false),
    S3_PRESIGN_SECONDS: z.coerce.number().int().min(1).max(604_800).default(60),
    DOWNLOAD_ACCEL_REDIRECT: z
      .string()
      .regex(
        /^\/(?:[A-Za-z0-9._-]+\/)*$/,
        'must be a path that starts and ends with "/", such as /protected-artifacts/',
      )
      .optional(),
    WEBHOOKS_ALLOW_PRIVATE: bool.default(false),
    INSTANCE_DELETE_DATA_DELAY_DAYS: z.coerce.number().int().min(0).max(3650).default(30),
    INSTANCE_PROVISIONING_DELAY_SECONDS: z.coerce.number().int().min(0).max(86_400).default(5),
    INSTANCE_URL_TEMPLATE: z
      .string()
      .regex(/^https?:\/\//, 'must be an http(s) URL')
      .default('https://{name}.instances.example.com'),
    INSTANCE_LOGS_URL_TEMPLATE: z
      .string()
      .regex(/^https?:\/\//, 'must be an http(s) URL')
      .default('https://logs.example.com/instances/{name}'),
    INSTANCE_ORCHESTRATOR_URL: z
      .url({ message: 'must be an absolute URL such as https://orchestrator.example.com' })
      .optional(),
    INSTANCE_ORCHESTRATOR_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
    SHUTDOWN_DELAY_SECONDS: z.coerce.number().int().min(0).max(300).default(0),
    REQUIRE_2FA_FOR: z
      .string()
      .default('')
      .transform((value) => [
        ...new Set(
          value
            .split(',')
            .map((item) => item.trim())
            .filter(Boolean),
        ),
      ])
      .pipe(z.array(z.enum(STAFF_TYPES, { message: `must list staff types: ${STAFF_TYPES.join(', ')}` }))),
    METRICS_TOKEN: z
      .string()
      .min(32, 'must be at least 32 characters')
      .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces (it is sent in a header)')
      .optional(),
    METRICS_BIND: z
      .string()
      .regex(METRICS_BIND, 'must be host:port, such as 127.0.0.1:9464 or [::1]:9464')
      .refine((value) => Number(value.slice(value.lastIndexOf(':') + 1)) <= 65535, 'has a port above 65535')
      .optional(),
    STRIPE_SECRET_KEY: z
      .string()
      .regex(/^(sk|rk)_[A-Za-z0-9_]+$/, 'must be a Stripe secret or restricted key (sk_… or rk_…)')
      .optional(),
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/=_-]+$/, 'must be a Stripe webhook signing secret (whsec_…)')
      .optional(),
    STRIPE_PRICE_ID: z
      .string()
      .regex(/^price_[A-Za-z0-9_]+$/, 'must be a Stripe price id (price_…)')
      .optional(),
    STRIPE_API_URL: z
      .url({ message: 'must be an absolute URL such as http://127.0.0.1:12111' })
      .refine((value) => /^https?:\/\/[^/]+\/?$/.test(value), 'must be http(s)://host[:port] without a path')
      .optional(),
    PAYMENT_GRACE_DAYS: z.coerce.number().int().min(1).max(365).default(14),
    PAYMENT_TRIAL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
    PAYMENT_TEST_CHECKOUT: bool.optional(),
    // self-service sign-up: on by default outside production (development, the demo, the tests)
    SELF_SERVICE_SIGNUP: bool.optional(),
    OIDC_CLIENTS: z.string().optional(),
    OIDC_COOKIE_KEYS: z
      .string()
      .refine(
        (value) => value.split(',').every((key) => key.trim().length >= 32),
        'must be keys of at least 32 characters, separated by commas',
      )
      .optional(),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === 'production' && !env.SESSION_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['SESSION_SECRET'], message: 'is required in production' });
    }
    if (env.NODE_ENV === 'production' && !env.SMTP_URL) {
      // Without SMTP the mails (and their reset links) would only reach the logs.
      ctx.addIssue({ code: 'custom', path: ['SMTP_URL'], message: 'is required in production' });
    }
    if (env.NODE_ENV === 'production' && env.SEED_DEMO_DATA) {
      // The demo accounts' password is published (README.md): in production they would be an open door.
      ctx.addIssue({
        code: 'custom',
        path: ['SEED_DEMO_DATA'],
        message: 'cannot be enabled in production: the demo accounts share a published password',
      });
    }
    if (env.NODE_ENV === 'production' && env.DEV_MAILBOX) {
      ctx.addIssue({ code: 'custom', path: ['DEV_MAILBOX'], message: 'cannot be enabled in production' });
    }
    if (env.LICENCE_SIGNING_KEY && env.LICENCE_SIGNING_KEY_PATH) {
      ctx.addIssue({
        code: 'custom',
        path: ['LICENCE_SIGNING_KEY_PATH'],
        message: 'LICENCE_SIGNING_KEY and LICENCE_SIGNING_KEY_PATH cannot be set together',
      });
    }
    if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
      ctx.addIssue({
        code: 'custom',
        path: ['S3_SECRET_ACCESS_KEY'],
        message: 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together',
      });
    }
    paymentIssues(env).forEach((issue) => ctx.addIssue({ code: 'custom', ...issue }));
    const oidc = parseOidcClients(env.OIDC_CLIENTS, env.NODE_ENV === 'production');
    if ('problems' in oidc) {
      oidc.problems.forEach((problem) => ctx.addIssue({ code: 'custom', path: ['OIDC_CLIENTS'], message: problem }));
    }
    if (Boolean(env.INSTANCE_ORCHESTRATOR_URL) !== Boolean(env.INSTANCE_ORCHESTRATOR_SECRET)) {
      ctx.addIssue({
        code: 'custom',
        path: ['INSTANCE_ORCHESTRATOR_SECRET'],
        message: 'INSTANCE_ORCHESTRATOR_URL and INSTANCE_ORCHESTRATOR_SECRET must be set together',
      });
    }
    if (Boolean(env.RECAPTCHA_SITE_KEY) !== Boolean(env.RECAPTCHA_SECRET_KEY)) {
      ctx.addIssue({
        code: 'custom',
        path: ['RECAPTCHA_SECRET_KEY'],
        message: 'RECAPTCHA_SITE_KEY and RECAPTCHA_SECRET_KEY must be set together',
      });
    }
  });

/** Whether visitors may sign up for a self-service trial (SELF_SERVICE_SIGNUP; on outside production). */
const selfServiceOf = (env: { NODE_ENV: string; SELF_SERVICE_SIGNUP?: boolean }): boolean =>
  env.SELF_SERVICE_SIGNUP ?? env.NODE_ENV !== 'production';

/**
 * Whether the portal takes card payments: through Stripe, or the built-in test checkout outside
 * production or where PAYMENT_TEST_CHECKOUT asks for it. Otherwise the payment routes answer 409
 * payment_not_configured and no customer is offered to pay.
 */
const paymentsAvailableOf = (env: { NODE_ENV: string; STRIPE_SECRET_KEY?: string; PAYMENT_TEST_CHECKOUT?: boolean }) =>
  Boolean(env.STRIPE_SECRET_KEY) || env.NODE_ENV !== 'production' || env.PAYMENT_TEST_CHECKOUT === true;

/**
 * The payment settings that contradict each other (docs/billing.md). Stripe is used with its three
 * keys; the webhook secret alone signs the built-in test checkout's events; any other part of the
 * set is a mistake. Production never takes "payments" through the test checkout unless told to, and
 * a production portal that offers the self-service sign-up has a way for its customers to pay.
 */
function paymentIssues(env: {
  NODE_ENV: string;
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  STRIPE_PRICE_ID?: string;
  PAYMENT_TEST_CHECKOUT?: boolean;
  SELF_SERVICE_SIGNUP?: boolean;
}): { path: string[]; message: string }[] {
  const secret = Boolean(env.STRIPE_SECRET_KEY);
  const price = Boolean(env.STRIPE_PRICE_ID);
  if (secret !== price || (secret && !env.STRIPE_WEBHOOK_SECRET)) {
    return [
      {
        path: [secret ? (price ? 'STRIPE_WEBHOOK_SECRET' : 'STRIPE_PRICE_ID') : 'STRIPE_SECRET_KEY'],
        message:
          'STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and STRIPE_PRICE_ID must be set together (STRIPE_WEBHOOK_SECRET alone signs the test checkout)',
      },
    ];
  }
  if (selfServiceOf(env) && !paymentsAvailableOf(env)) {
    return [
      {
        path: ['SELF_SERVICE_SIGNUP'],
        message:
          'is on in production, where self-service customers pay by card: set STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and STRIPE_PRICE_ID; or SELF_SERVICE_SIGNUP=false to offer no self-service sign-up (then no payment setting is needed); or PAYMENT_TEST_CHECKOUT=true on a staging portal, where nobody pays',
      },
    ];
  }
  return [];
}

export interface Config {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  baseUrl: string;
  databaseUrl: string;
  smtpUrl: string | null;
  mailFrom: string;
  /** this process among the app nodes sharing the database (it names its outbox claims) */
  nodeName: string;
  sessionSecret: string;
  /**
   * The secrets sealed values open under (server/security/seal.ts): SESSION_SECRET first, then
   * SESSION_SECRET_PREVIOUS. Values are sealed under the first only.
   */
  sealSecrets: readonly string[];
  /**
   * Whether a start may make a new licence signing key when stored keys exist and none opens under
   * the secrets (ALLOW_NEW_SIGNING_KEY, or `--allow-new-signing-key`); always so outside production.
   */
  allowNewSigningKey: boolean;
  /** a session ends this long after sign-in, however active (on top of the 12-hour idle timeout) */
  sessionLifetimeMs: number;
  /** false, a hop count, or a list of addresses/CIDRs, as Fastify's trustProxy takes it */
  trustProxy: false | number | string[];
  dataDir: string;
  logLevel: string;
  recaptcha: { siteKey: string; secretKey: string } | null;
  /** PBKDF2 iterations per key the browser derives to solve a self-hosted captcha */
  captchaCost: number;
  /** the window of a download digest: one mail per recipient per window (docs/notifications.md) */
  downloadDigestMinutes: number;
  /** upper bound of the self-hosted captcha's secret counter: how many keys a browser derives */
  captchaMaxNumber: number;
  /** per IP and minute; downloadSecret counts wrong download secrets only */
  rateLimits: { login: number; passwordReset: number; signup: number; invitation: number; downloadSecret: number };
  /** every sign-up is answered no sooner than this after it came (docs/decisions/067) */
  signupAnswerFloorMs: number;
  redisUrl: string | null;
  /** mail stored and shown in a local mailbox page; never in production */
  devMailbox: boolean;
  seedDemoData: boolean;
  /** each answer checked against its schema before it is sent (server/serializer.ts) */
  checkResponses: boolean;
  supportUrl: string;
  academyUrl: string;
  /** the telemetry dashboard of one customer: `{key}` (or `{customerKey}`) and `{id}` are replaced */
  telemetryUrl: string;
  /** the support desk's sign-on (modules/sso, docs/decisions/072) */
  supportDesk: SupportDeskConfig;
  /**
   * Visitors may sign up for a self-service trial (SELF_SERVICE_SIGNUP, on outside production): off,
   * the sign-up's routes answer 404 and the sign-in page offers no sign-up (docs/billing.md).
   */
  selfServiceSignup: boolean;
  /** the CRM (Salesforce) connection; null: the sync answers 409 crm_not_configured (docs/decisions/073) */
  crm: CrmConfig | null;
  contactEmail: string;
  legalBaseUrl: string | null;
  staticDir: string;
  secureCookies: boolean;
  /**
   * How long a request's headers, then its body, may take to arrive (plugins/timeouts.ts); a route
   * that streams large bodies declares its own body limit (`config.bodyTimeoutMs`).
   */
  timeouts: { headersMs: number; bodyMs: number };
  /**
   * The Ed25519 private key (PEM, PKCS#8) that signs licence files, from LICENCE_SIGNING_KEY or the
   * file LICENCE_SIGNING_KEY_PATH names; null: the portal generates its key and keeps it in the
   * database (docs/licence-files.md).
   */
  licenceSigningKey: string | null;
  /** the local artifact store's folder (default `DATA_DIR/artifacts`); unused when artifacts go to S3 */
  artifactsDir: string;
  /** an artifact larger than this is refused while it uploads (default 10 GiB) */
  artifactMaxBytes: number;
  /** the S3-compatible bucket artifacts go to instead of `artifactsDir`, when S3_BUCKET is set */
  s3: S3Options | null;
  /** how long a presigned download URL of S3 storage stays valid (default 60 s) */
  s3PresignSeconds: number;
  /**
   * The internal nginx location that serves the local artifact folder (`X-Accel-Redirect`): the portal
   * authorises, nginx sends the bytes (docs/operations.md); null: the portal streams them itself.
   */
  downloadAccelRedirect: string | null;
  /** after SIGTERM, how long requests in flight (long downloads) may take to finish */
  shutdownGraceMs: number;
  /**
   * after SIGTERM, how long the node keeps serving while `GET /api/ready` answers 503, before it
   * stops accepting connections: the time a load balancer takes to stop sending it new ones
   */
  shutdownDelayMs: number;
  /**
   * Scraping `GET /metrics` (server/metrics.ts): with `token`, it takes `Authorization: Bearer
   * <token>`; with `bind`, a second listener on that address serves it without one (operators keep
   * that address private). Neither: no metrics are served. A secret: never logged.
   */
  metrics: { token: string | null; bind: { host: string; port: number } | null };
  /** user types that must sign in with a second factor (REQUIRE_2FA_FOR): led to add one first */
  requireTwoFactorFor: StaffType[];
  /**
   * Webhook deliveries (docs/webhooks.md): `allowPrivate` lets them reach private and loopback
   * addresses (WEBHOOKS_ALLOW_PRIVATE; link-local, unspecified and multicast ones never); `timeoutMs`
   * bounds an attempt (10 s; only tests shorten it).
   */
  webhooks: { allowPrivate: boolean; timeoutMs: number };
  /** Self-service payments (docs/billing.md, server/integrations/payments). */
  payments: PaymentsConfig;
  /** Cloud instances (docs/instances.md): their lifecycle, and who provisions them. */
  instances: InstancesConfig;
  /** The OpenID Connect provider under /oidc (docs/oidc.md): its relying parties and cookie keys. */
  oidc: OidcConfig;
}

export interface InstancesConfig {
  /** an archived instance's data is deleted this many days later, unless it is restored (new instances) */
  deleteDataDelayInDays: number;
  /** the local simulator's pause before each step (creating to provisioning, to provisioned, to deleted) */
  provisioningDelaySeconds: number;
  /** the address the local simulator gives a ready instance: `{name}` and `{id}` are replaced */
  urlTemplate: string;
  /** an instance's logs, linked for support engineers and admins: `{name}`, `{id}`, `{customerKey}` */
  logsUrlTemplate: string;
  /** the orchestrator that builds instances (its URL and shared secret); null: the local simulator */
  orchestrator: { url: string; secret: string } | null;
  /** how long an orchestrator request may take (10 s; only tests shorten it) */
  orchestratorTimeoutMs: number;
}

export interface PaymentsConfig {
  /** Stripe, when its three keys are set; otherwise the built-in test checkout takes the payments */
  stripe: { secretKey: string; webhookSecret: string; priceId: string } | null;
  /**
   * Where the Stripe client sends its requests (STRIPE_API_URL; null: Stripe's own API): a local
   * peer in tests, stripe-mock or a proxy elsewhere.
   */
  stripeApi: { protocol: 'http' | 'https'; host: string; port: number } | null;
  /**
   * The secret the built-in test checkout signs its events with: STRIPE_WEBHOOK_SECRET when it is set
   * without the other two keys (so a test can sign events of its own); null: the portal's own, generated
   * once and kept sealed in the database.
   */
  testCheckoutSecret: string | null;
  /**
   * Card payments are taken (Stripe, or the test checkout outside production or with
   * PAYMENT_TEST_CHECKOUT=true); false: the payment routes answer 409 payment_not_configured.
   */
  available: boolean;
  /** how long a customer whose payment failed keeps the service (PAYMENT_GRACE_DAYS, default 14) */
  graceDays: number;
  /** how long a self-service customer's free trial lasts (PAYMENT_TRIAL_DAYS, default 30) */
  trialDays: number;
}

/** STRIPE_API_URL as the Stripe client's host, port and protocol options. */
function stripeApiOf(url: string | undefined): PaymentsConfig['stripeApi'] {
  if (!url) return null;
  const parsed = new URL(url);
  const protocol = parsed.protocol === 'http:' ? 'http' : 'https';
  return {
    protocol,
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: parsed.port ? Number(parsed.port) : protocol === 'http' ? 80 : 443,
  };
}

export class ConfigError extends Error {}

/**
 * `true` stands for one proxy hop, not Fastify's "trust every hop": with every hop trusted the
 * client address is the leftmost X-Forwarded-For entry, which the client writes itself (a proxy
 * appends to what it received), so anyone could pick a new address per request and escape the
 * per-IP rate limits and the captcha count. Several proxies in a row need their count or addresses.
 */
function parseTrustProxy(value: string): Config['trustProxy'] {
  if (value === 'false' || value === '' || value === '0') return false;
  if (value === 'true') return 1;
  if (/^\d+$/.test(value)) return Number(value);
  return value.split(',').map((s) => s.trim());
}

/** `host:port` (the schema checked its shape), the brackets of an IPv6 address removed. */
function parseHostPort(value: string): { host: string; port: number } {
  const colon = value.lastIndexOf(':');
  return { host: value.slice(0, colon).replace(/^\[(.*)\]$/, '$1'), port: Number(value.slice(colon + 1)) };
}

/**
 * The configured licence signing key, checked at start: an Ed25519 private key in PEM. An environment
 * variable may hold the PEM with its line breaks written as \\n.
 */
function readLicenceSigningKey(inline: string | undefined, file: string | undefined): string | null {
  let pem: string;
  let name: string;
  if (inline) {
    pem = inline.includes('\\n') ? inline.replaceAll('\\n', '\n') : inline;
    name = 'LICENCE_SIGNING_KEY';
  } else if (file) {
    name = 'LICENCE_SIGNING_KEY_PATH';
    try {
      pem = fs.readFileSync(file, 'utf8');
    } catch (error) {
      throw new ConfigError(
        `Invalid configuration:\n  ${name}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})\nSee docs/configuration.md.`,
      );
    }
  } else {
    return null;
  }
  let type: string | undefined;
  try {
    type = crypto.createPrivateKey(pem).asymmetricKeyType;
  } catch {
    type = undefined;
  }
  if (type !== 'ed25519') {
    throw new ConfigError(
      `Invalid configuration:\n  ${name}: must be an Ed25519 private key in PEM (openssl genpkey -algorithm ed25519)\nSee docs/configuration.md.`,
    );
  }
  return pem;
}

export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  overrides: Partial<Config> = {},
): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(environment)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}\nSee docs/configuration.md.`);
  }
  const e = parsed.data;
  const outside = readSupportAndCrm(env);
  if (!outside.settings) {
    throw new ConfigError(
      `Invalid configuration:\n${outside.issues.map((line) => `  ${line}`).join('\n')}\nSee docs/configuration.md.`,
    );
  }
  const baseUrl = (e.BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  const config: Config = {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    baseUrl,
    databaseUrl: e.DATABASE_URL,
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM,
    nodeName: e.NODE_NAME ?? os.hostname(),
    // Development default only; production refuses to start without one (see superRefine above).
    sessionSecret: e.SESSION_SECRET ?? 'development-only-session-secret-change-me',
    sealSecrets: [e.SESSION_SECRET ?? 'development-only-session-secret-change-me', ...e.SESSION_SECRET_PREVIOUS],
    allowNewSigningKey: e.NODE_ENV !== 'production' || e.ALLOW_NEW_SIGNING_KEY,
    sessionLifetimeMs: Math.round(e.SESSION_LIFETIME_DAYS * 24 * 60 * 60 * 1000),
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    dataDir: path.resolve(e.DATA_DIR),
    logLevel: e.LOG_LEVEL,
    recaptcha:
      e.RECAPTCHA_SITE_KEY && e.RECAPTCHA_SECRET_KEY
        ? { siteKey: e.RECAPTCHA_SITE_KEY, secretKey: e.RECAPTCHA_SECRET_KEY }
        : null,
    captchaCost: e.CAPTCHA_COST,
    downloadDigestMinutes: e.DOWNLOAD_DIGEST_MINUTES,
    captchaMaxNumber: e.CAPTCHA_MAX_NUMBER,
    rateLimits: {
      login: e.RATE_LIMIT_LOGIN_PER_MINUTE,
      passwordReset: e.RATE_LIMIT_PASSWORD_RESET_PER_MINUTE,
      signup: e.RATE_LIMIT_SIGNUP_PER_MINUTE,
      invitation: e.RATE_LIMIT_INVITATION_PER_MINUTE,
      downloadSecret: e.RATE_LIMIT_DOWNLOAD_SECRET_PER_MINUTE,
    },
    signupAnswerFloorMs: e.SIGNUP_ANSWER_FLOOR_MS,
    redisUrl: e.REDIS_URL ?? null,
    devMailbox: e.DEV_MAILBOX ?? (e.NODE_ENV !== 'production' && !e.SMTP_URL),
    seedDemoData: e.SEED_DEMO_DATA ?? e.NODE_ENV !== 'production',
    checkResponses: e.CHECK_RESPONSES ?? e.NODE_ENV !== 'production',
    supportUrl: e.SUPPORT_URL,
    academyUrl: e.ACADEMY_URL,
    telemetryUrl: outside.settings.telemetryUrl,
    supportDesk: outside.settings.supportDesk,
    crm: outside.settings.crm,
    selfServiceSignup: selfServiceOf(e),
    contactEmail: e.CONTACT_EMAIL,
    legalBaseUrl: e.LEGAL_BASE_URL ?? null,
    staticDir: path.resolve(e.STATIC_DIR),
    secureCookies: baseUrl.startsWith('https://'),
    timeouts: { headersMs: e.HEADERS_TIMEOUT_MS, bodyMs: e.BODY_TIMEOUT_MS },
    licenceSigningKey: readLicenceSigningKey(e.LICENCE_SIGNING_KEY, e.LICENCE_SIGNING_KEY_PATH),
    artifactsDir: path.resolve(e.ARTIFACTS_DIR ?? path.join(e.DATA_DIR, 'artifacts')),
    artifactMaxBytes: e.ARTIFACT_MAX_BYTES,
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT ?? null,
          region: e.S3_REGION,
          accessKeyId: e.S3_ACCESS_KEY_ID ?? null,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY ?? null,
          forcePathStyle: e.S3_FORCE_PATH_STYLE,
        }
      : null,
    s3PresignSeconds: e.S3_PRESIGN_SECONDS,
    downloadAccelRedirect: e.DOWNLOAD_ACCEL_REDIRECT ?? null,
    shutdownGraceMs: e.SHUTDOWN_GRACE_SECONDS * 1000,
    shutdownDelayMs: e.SHUTDOWN_DELAY_SECONDS * 1000,
    // Unset in production is safe (metrics off), so nothing is required there.
    metrics: { token: e.METRICS_TOKEN ?? null, bind: e.METRICS_BIND ? parseHostPort(e.METRICS_BIND) : null },
    requireTwoFactorFor: e.REQUIRE_2FA_FOR,
    webhooks: { allowPrivate: e.WEBHOOKS_ALLOW_PRIVATE, timeoutMs: 10_000 },
    payments: {
      stripe:
        e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET && e.STRIPE_PRICE_ID
          ? { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET, priceId: e.STRIPE_PRICE_ID }
          : null,
      stripeApi: stripeApiOf(e.STRIPE_API_URL),
      testCheckoutSecret: e.STRIPE_SECRET_KEY ? null : (e.STRIPE_WEBHOOK_SECRET ?? null),
      available: paymentsAvailableOf(e),
      graceDays: e.PAYMENT_GRACE_DAYS,
      trialDays: e.PAYMENT_TRIAL_DAYS,
    },
    instances: {
      deleteDataDelayInDays: e.INSTANCE_DELETE_DATA_DELAY_DAYS,
      provisioningDelaySeconds: e.INSTANCE_PROVISIONING_DELAY_SECONDS,
      urlTemplate: e.INSTANCE_URL_TEMPLATE,
      logsUrlTemplate: e.INSTANCE_LOGS_URL_TEMPLATE,
      orchestrator:
        e.INSTANCE_ORCHESTRATOR_URL && e.INSTANCE_ORCHESTRATOR_SECRET
          ? { url: e.INSTANCE_ORCHESTRATOR_URL.replace(/\/+$/, ''), secret: e.INSTANCE_ORCHESTRATOR_SECRET }
          : null,
      orchestratorTimeoutMs: 10_000,
    },
    oidc: {
      clients: (parseOidcClients(e.OIDC_CLIENTS, e.NODE_ENV === 'production') as { clients: OidcConfig['clients'] })
        .clients,
      cookieKeys: oidcCookieKeys(e.OIDC_COOKIE_KEYS, [
        e.SESSION_SECRET ?? 'development-only-session-secret-change-me',
        ...e.SESSION_SECRET_PREVIOUS,
      ]),
    },
  };
  return { ...config, ...overrides };
}
