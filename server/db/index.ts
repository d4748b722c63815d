import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CamelCasePlugin,
  Kysely,
  type LogEvent,
  type Migration,
  type MigrationProvider,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  sql,
} from 'kysely';
import { createRequire } from 'node:module';
import type pg from 'pg';
import type { DialectName } from './dialect';
import { initialMigration } from './migrations/001_initial';
import { searchMigration } from './migrations/002_search';
import { emailChangeMigration } from './migrations/003_email_change';
import { invitationKeySealedMigration } from './migrations/004_invitation_key_sealed';
import { auditByActionMigration } from './migrations/005_audit_by_action';
import { licencePerProductMigration } from './migrations/006_licence_per_product';
import { licenceSigningKeysMigration } from './migrations/007_licence_signing_keys';
import { customizationPerProductMigration } from './migrations/008_customization_per_product';
import { downloadPlatformMigration } from './migrations/009_download_platform';
import { versionOrderMigration } from './migrations/010_version_order';
import { productTokensMigration } from './migrations/011_product_tokens';
import { downloadAnalyticsMigration } from './migrations/012_download_analytics';
import { downloadsToDateMigration } from './migrations/014_downloads_to_date';
import { customerLastLicenceEndMigration } from './migrations/015_customer_last_licence_end';
import { lastLicenceEndLockMigration } from './migrations/016_last_licence_end_lock';
import { idempotencyKeysMigration } from './migrations/017_idempotency_keys';
import { customerNameOrderMigration } from './migrations/018_customer_name_order';
import { customersShownMigration } from './migrations/019_customers_shown';
import { auditActorMigration } from './migrations/020_audit_actor';
import { jobsMigration } from './migrations/021_jobs';
import { notificationsByDateMigration } from './migrations/022_notifications_by_date';
import { webhooksMigration } from './migrations/023_webhooks';
import { signupInvitationsMigration } from './migrations/024_signup_invitations';
import { instanceLifecycleMigration } from './migrations/025_instance_lifecycle';
import { billingMigration } from './migrations/026_billing';
import { oidcProviderMigration } from './migrations/027_oidc_provider';
import { twoFactorMigration } from './migrations/028_two_factor';
import { supportDeskAndCrmMigration } from './migrations/029_support_desk_and_crm';
import { staffSearchMigration } from './migrations/030_staff_search';
import { mailBodiesSealedMigration } from './migrations/031_mail_bodies_sealed';
import { latestReleaseMigration } from './migrations/033_latest_release';
import { oidcStateHashedMigration } from './migrations/036_oidc_state_hashed';
import { usersPrefixCoveringMigration } from './migrations/037_users_prefix_covering';
import type { Database } from './schema';
import { withNamedStatements, withStatementCache } from './statements';

export type { DialectName } from './dialect';
export type DB = Kysely<Database>;

export interface DatabaseHandle {
  db: DB;
  dialect: DialectName;
  close(): Promise<void>;
  /**
   * Where a connection that fails while nobody uses it is reported (PostgreSQL restarting, a network
   * cut). The pool drops it and opens a new one when next asked; the process carries on. Until the
   * app sets a listener, the failure goes to standard error.
   */
  onConnectionError(listener: (error: Error) => void): void;
  /** PostgreSQL: the connection pool now (the metrics read it); null on SQLite, which has no pool */
  poolUsage(): PoolUsage | null;
}

export interface PoolUsage {
  /** open connections, busy or idle */
  total: number;
  idle: number;
  /** queries waiting for a connection: all of them are busy and the pool is at its size */
  waiting: number;
  max: number;
}

/** Migrations in order; later areas append theirs here. */
function migrations(dialect: DialectName): Record<string, Migration> {
  return {
    '001_initial': initialMigration(dialect),
    '002_search': searchMigration(dialect),
    '003_email_change': emailChangeMigration(dialect),
    '004_invitation_key_sealed': invitationKeySealedMigration(),
    '005_audit_by_action': auditByActionMigration(),
    '006_licence_per_product': licencePerProductMigration(),
    '007_licence_signing_keys': licenceSigningKeysMigration(),
    '008_customization_per_product': customizationPerProductMigration(),
    '009_download_platform': downloadPlatformMigration(),
    '010_version_order': versionOrderMigration(dialect),
    '011_product_tokens': productTokensMigration(dialect),
    '012_download_analytics': downloadAnalyticsMigration(dialect),
    '014_downloads_to_date': downloadsToDateMigration(dialect),
    '015_customer_last_licence_end': customerLastLicenceEndMigration(dialect),
    '016_last_licence_end_lock': lastLicenceEndLockMigration(dialect),
    '017_idempotency_keys': idempotencyKeysMigration(),
    '018_customer_name_order': customerNameOrderMigration(dialect),
    '019_customers_shown': customersShownMigration(dialect),
    '020_audit_actor': auditActorMigration(),
    '021_jobs': jobsMigration(dialect),
    '022_notifications_by_date': notificationsByDateMigration(),
    '023_webhooks': webhooksMigration(dialect),
    '024_signup_invitations': signupInvitationsMigration(dialect),
    '025_instance_lifecycle': instanceLifecycleMigration(),
    '026_billing': billingMigration(dialect),
    '027_oidc_provider': oidcProviderMigration(),
    '028_two_factor': twoFactorMigration(dialect),
    '029_support_desk_and_crm': supportDeskAndCrmMigration(),
    '030_staff_search': staffSearchMigration(dialect),
    '031_mail_bodies_sealed': mailBodiesSealedMigration(),
    '033_latest_release': latestReleaseMigration(),
    '036_oidc_state_hashed': oidcStateHashedMigration(),
    '037_users_prefix_covering': usersPrefixCoveringMigration(dialect),
  };
}

/** The names of the migrations this portal knows, in order (a backup from a later portal has more). */
export function knownMigrations(dialect: DialectName): string[] {
  return Object.keys(migrations(dialect)).sort();
}

export function dialectOf(databaseUrl: string): DialectName {
  return /^postgres(ql)?:\/\//.test(databaseUrl) ? 'postgres' : 'sqlite';
}

/** `DATABASE_URL`: `postgres://…` for PostgreSQL, otherwise `sqlite:<file>` / a file path / `:memory:`. */
export interface DatabaseOptions {
  /** called with the SQL of every query run (tests count the queries of a request with it) */
  onQuery?: (sql: string, parameters: readonly unknown[]) => void;
  /**
   * SQLite only: opens a database in memory holding a copy of this image (a serialized database)
   * instead of the URL's. The API tests copy a migrated template this way (server/test/harness.ts).
   */
  sqliteImage?: Buffer;
}

export function openDatabase(databaseUrl: string, options: DatabaseOptions = {}): DatabaseHandle {
  const dialect = dialectOf(databaseUrl);
  const { onQuery } = options;
  const log = onQuery
    ? (event: LogEvent) => {
        if (event.level === 'query') onQuery(event.query.sql, event.query.parameters);
      }
    : undefined;
  if (dialect === 'postgres') {
    // PostgreSQL's client is loaded only for a PostgreSQL database (a SQLite portal never loads it).
    const pg = loadPg();
    // pg returns int8 (count(*), bigint) as strings; our counts and sizes fit in a JS number.
    pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));
    // A connection attempt gives up after 5 s, so a request meets an unreachable database with a 503
    // in bounded time rather than waiting for ever.
    const max = 10;
    const pool = new pg.Pool({ connectionString: databaseUrl, max, connectionTimeoutMillis: 5_000 });
    let report = (error: Error) => console.error(`database connection lost: ${error.message}`);
    // Without a listener, an idle connection's error (the server restarting) would end the process.
    pool.on('error', (error) => report(error));
    // The pool listens to idle connections only: one held between two statements (a transaction, a
    // job) when the server goes away would end the process with its unheard error. Every connection
    // is heard for its whole life; its holder's next statement fails, and the pool drops it.
    pool.on('connect', (client) => client.on('error', (error) => report(error)));
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: withNamedStatements(pool) as typeof pool }),
      plugins: [new CamelCasePlugin()],
      log,
    });
    return {
      db,
      dialect,
      close: () => db.destroy(),
      onConnectionError: (listener) => {
        report = listener;
      },
      poolUsage: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max }),
    };
  }
  const file = databaseUrl.replace(/^sqlite:(\/\/)?/, '');
  if (options.sqliteImage === undefined && file !== ':memory:') {
    fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  }
  const sqlite = new SQLite(options.sqliteImage ?? file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // A page cache of up to 64 MiB instead of SQLite's 2 MiB: at 100k rows the search indexes and the
  // licences index no longer fit in 2, and a search re-read its pages from the OS at every run
  // (decision 013: 0.79 ms instead of 0.34 for a customer search).
  sqlite.pragma('cache_size = -65536');
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
    plugins: [new CamelCasePlugin()],
    log,
  });
  return { db, dialect, close: () => db.destroy(), onConnectionError: () => {}, poolUsage: () => null };
}

const UNAVAILABLE_CODES = new Set([
  // the network: nothing listens, the connection was cut, the name does not resolve (yet)
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  // PostgreSQL: connection exceptions (08xxx), too many connections, shutting down or starting up
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '53300',
  '57P01',
  '57P02',
  '57P03',
  // SQLite: another writer held the file past busy_timeout
  'SQLITE_BUSY',
]);
/** node-postgres's own errors carry no code; these are its messages for a lost or refused connection. */
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];

/**
 * The database cannot be reached for now (down, restarting, overloaded): the request may succeed if
 * tried again in a moment. Answered 503, never 500, and never a reason for the process to stop.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
  if (error instanceof AggregateError && error.errors.some(isDatabaseUnavailable)) return true;
  return UNAVAILABLE_MESSAGES.some((message) => error.message.includes(message));
}

/**
 * Waits until the database answers, retrying for as long as it is unreachable (a start while
 * PostgreSQL is still coming up, or down): 0.5 s, then twice as long each time up to 5 s. Any other
 * error (a wrong password, a missing database) is thrown at once. `stop()` true gives up.
 */
export async function waitForDatabase(
  handle: DatabaseHandle,
  options: { onRetry?: (error: Error, delayMs: number) => void; stop?: () => boolean } = {},
): Promise<void> {
  let delayMs = 500;
  for (;;) {
    try {
      await ping(handle.db);
      return;
    } catch (error) {
      if (!isDatabaseUnavailable(error) || options.stop?.()) throw error;
      options.onRetry?.(error as Error, delayMs);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      delayMs = Math.min(delayMs * 2, 5_000);
    }
  }
}

export async function migrateToLatest(handle: DatabaseHandle): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(handle.dialect) };
  // Areas add their migrations in parallel: one numbered before a migration a database has already
  // run (006 landing after 008) still runs, instead of the start failing. Each migration only adds
  // its own tables, columns and indexes, so their order among themselves does not matter.
  const migrator = new Migrator({ db: handle.db, provider, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(
      `Migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** Undoes the last migration the database ran (its `down`): a database of the previous level, for tests of upgrades. */
export async function undoLastMigration(handle: DatabaseHandle): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(handle.dialect) };
  const migrator = new Migrator({ db: handle.db, provider, allowUnorderedMigrations: true });
  const { error } = await migrator.migrateDown();
  if (error) throw error instanceof Error ? error : new Error(`migrating down failed: ${JSON.stringify(error)}`);
}

/** The migrations this portal knows that the database has not run: none once a start has migrated it. */
export async function pendingMigrations(db: DB, dialect: DialectName): Promise<string[]> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(dialect) };
  const all = await new Migrator({ db, provider, allowUnorderedMigrations: true }).getMigrations();
  return all.filter((migration) => migration.executedAt === undefined).map((migration) => migration.name);
}

/** One round trip to the database (`select 1`): throws when it does not answer. */
export async function ping(db: DB): Promise<void> {
  await sql`select 1`.execute(db);
}

export const nowIso = () => new Date().toISOString();

/** A unique constraint (or primary key) refused the write, on SQLite or PostgreSQL (e.g. two requests raced past a check). */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** `pg`, required when first needed (openDatabase is synchronous; `pg` is a CommonJS package). */
function loadPg(): typeof pg {
  return createRequire(import.meta.url)('pg') as typeof pg;
}
