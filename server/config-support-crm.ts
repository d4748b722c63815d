import { z } from 'zod';

/**
 * The settings of the support desk's sign-on, the CRM (Salesforce) sync and the telemetry link
 * (docs/configuration.md, docs/decisions/072 and 073), read from the same environment as the rest of
 * server/config.ts and refused at start with the same kind of message.
 */

export interface SupportDeskConfig {
  /** the support desk's home (its links, and where a refused return target goes) */
  url: string;
  /** the desk's JWT endpoint the hand-off form posts to: SUPPORT_URL's origin and SUPPORT_JWT_PATH */
  jwtUrl: string;
  /** the secret shared with the desk (HS256); null: no support desk, the hand-off answers its 409 page (support_desk_not_configured) */
  jwtSecret: string | null;
  /** how long a token handed to the desk stays valid */
  jwtLifetimeSeconds: number;
}

export interface CrmConfig {
  /** where the OAuth token is asked for (Salesforce's login or My Domain address) */
  loginUrl: string;
  clientId: string;
  clientSecret: string;
  /** the OAuth username-password flow when given; otherwise the client credentials flow */
  user: { username: string; password: string } | null;
  apiVersion: string;
  /** customers created or changed in the portal are pushed by a job */
  syncOnChange: boolean;
}

interface SupportAndCrmSettings {
  supportDesk: SupportDeskConfig;
  crm: CrmConfig | null;
  /** the telemetry dashboard of one customer: `{key}` (or `{customerKey}`) and `{id}` are replaced */
  telemetryUrl: string;
}

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const Schema = z.object({
  NODE_ENV: z.string().optional(),
  SUPPORT_URL: z.url().default('https://support.example.com'),
  SUPPORT_JWT_PATH: z
    .string()
    .regex(/^\/[A-Za-z0-9._~\-/]*$/, 'must be a path such as /access/jwt')
    .default('/access/jwt'),
  // an empty value is no value (an unset variable in a compose file)
  SUPPORT_JWT_SECRET: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
  SUPPORT_JWT_LIFETIME_SECONDS: z.coerce.number().int().min(10).max(600).default(120),
  TELEMETRY_URL_TEMPLATE: z
    .string()
    .regex(/^https?:\/\//, 'must be an http(s) URL')
    .optional(),
  /** the older name of TELEMETRY_URL_TEMPLATE, still read */
  TELEMETRY_URL: z
    .string()
    .regex(/^https?:\/\//, 'must be an http(s) URL')
    .optional(),
  SALESFORCE_LOGIN_URL: z.url({ message: 'must be an absolute URL such as https://login.salesforce.com' }).optional(),
  SALESFORCE_CLIENT_ID: z.string().min(1).optional(),
  SALESFORCE_CLIENT_SECRET: z.string().min(1).optional(),
  SALESFORCE_USERNAME: z.string().min(1).optional(),
  SALESFORCE_PASSWORD: z.string().min(1).optional(),
  SALESFORCE_API_VERSION: z
    .string()
    .regex(/^\d{2,3}\.0$/, 'must be an API version such as 62.0')
    .default('62.0'),
  CRM_SYNC_ON_CHANGE: bool.default(false),
});
type Env = z.infer<typeof Schema>;

/** A shared secret nobody guesses: long, and not one character repeated or a short pattern. */
export function weakSecret(secret: string): string | null {
  if (secret.length < 32) return 'must be at least 32 characters';
  if (new Set(secret).size < 10) return 'must not be a repeated pattern: use a random value (openssl rand -hex 32)';
  if (/change.?me|secret|password|example/i.test(secret)) return 'must be a random value, not a placeholder';
  return null;
}

function issuesOf(env: Env, given: Record<string, string | undefined>): { path: string; message: string }[] {
  const issues: { path: string; message: string }[] = [];
  const production = env.NODE_ENV === 'production';
  if (env.SUPPORT_JWT_SECRET !== undefined) {
    const weak = weakSecret(env.SUPPORT_JWT_SECRET);
    if (weak) issues.push({ path: 'SUPPORT_JWT_SECRET', message: weak });
  } else if (production && given.SUPPORT_URL) {
    // A desk is set up: without its secret every hand-off would fail, or be forged by anyone.
    issues.push({ path: 'SUPPORT_JWT_SECRET', message: 'is required in production when SUPPORT_URL is set' });
  }
  const oauth = [env.SALESFORCE_LOGIN_URL, env.SALESFORCE_CLIENT_ID, env.SALESFORCE_CLIENT_SECRET];
  if (oauth.some(Boolean) && !oauth.every(Boolean)) {
    issues.push({
      path: 'SALESFORCE_CLIENT_SECRET',
      message: 'SALESFORCE_LOGIN_URL, SALESFORCE_CLIENT_ID and SALESFORCE_CLIENT_SECRET must be set together',
    });
  }
  if (Boolean(env.SALESFORCE_USERNAME) !== Boolean(env.SALESFORCE_PASSWORD)) {
    issues.push({
      path: 'SALESFORCE_PASSWORD',
      message: 'SALESFORCE_USERNAME and SALESFORCE_PASSWORD must be set together',
    });
  }
  if (env.SALESFORCE_USERNAME && !env.SALESFORCE_LOGIN_URL) {
    issues.push({ path: 'SALESFORCE_LOGIN_URL', message: 'is required with SALESFORCE_USERNAME' });
  }
  if (production && env.SALESFORCE_LOGIN_URL && !env.SALESFORCE_LOGIN_URL.startsWith('https://')) {
    issues.push({ path: 'SALESFORCE_LOGIN_URL', message: 'must be an https URL in production' });
  }
  if (env.CRM_SYNC_ON_CHANGE && !env.SALESFORCE_LOGIN_URL) {
    issues.push({ path: 'CRM_SYNC_ON_CHANGE', message: 'needs the Salesforce settings (SALESFORCE_LOGIN_URL...)' });
  }
  return issues;
}

/** The settings, or the lines of what is wrong with them (each `NAME: message`). */
export function readSupportAndCrm(
  given: Record<string, string | undefined>,
): { settings: SupportAndCrmSettings; issues: [] } | { settings: null; issues: string[] } {
  const parsed = Schema.safeParse(given);
  if (!parsed.success) {
    return { settings: null, issues: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) };
  }
  const env = parsed.data;
  const issues = issuesOf(env, given);
  if (issues.length > 0) return { settings: null, issues: issues.map((i) => `${i.path}: ${i.message}`) };
  const support = new URL(env.SUPPORT_URL);
  return {
    settings: {
      supportDesk: {
        url: env.SUPPORT_URL,
        jwtUrl: new URL(env.SUPPORT_JWT_PATH, support.origin).toString(),
        jwtSecret: env.SUPPORT_JWT_SECRET ?? null,
        jwtLifetimeSeconds: env.SUPPORT_JWT_LIFETIME_SECONDS,
      },
      crm:
        env.SALESFORCE_LOGIN_URL && env.SALESFORCE_CLIENT_ID && env.SALESFORCE_CLIENT_SECRET
          ? {
              loginUrl: env.SALESFORCE_LOGIN_URL.replace(/\/+$/, ''),
              clientId: env.SALESFORCE_CLIENT_ID,
              clientSecret: env.SALESFORCE_CLIENT_SECRET,
              user:
                env.SALESFORCE_USERNAME && env.SALESFORCE_PASSWORD
                  ? { username: env.SALESFORCE_USERNAME, password: env.SALESFORCE_PASSWORD }
                  : null,
              apiVersion: env.SALESFORCE_API_VERSION,
              syncOnChange: env.CRM_SYNC_ON_CHANGE,
            }
          : null,
      telemetryUrl: env.TELEMETRY_URL_TEMPLATE ?? env.TELEMETRY_URL ?? 'https://telemetry.example.com/customers/{key}',
    },
    issues: [],
  };
}
