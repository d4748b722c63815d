import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, type PasswordError } from '../common/password';
import { passwordProblem } from './modules/auth/password-rule';
import { STAFF_TYPES } from '../common/roles';
import { ERROR_CODES } from '../common/api/errors';
import { systemActor } from './actor';
import { ConfigError, loadConfig } from './config';
import type { AppContext, Logger } from './context';
import { HttpError } from './http-error';

/**
 * Operator commands: `npm run cli -- <command> [options]`. They work on the database DATABASE_URL
 * names (migrating it first), so the first admin of a production install can be created without
 * demo data. Exit codes: 0 done, 1 refused or failed, 2 wrong usage.
 */

class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

interface Command {
  summary: string;
  usage: string;
  run(args: string[], io: CliIo): Promise<void>;
}

const PASSWORD_TEXT: Record<PasswordError, string> = {
  'password.error.too_short': `must be at least ${PASSWORD_MIN_LENGTH} characters long`,
  'password.error.too_long': `must be at most ${PASSWORD_MAX_LENGTH} characters long`,
  'password.error.no_lowercase': 'must contain a lowercase letter',
  'password.error.no_uppercase': 'must contain an uppercase letter',
  'password.error.no_number': 'must contain a digit',
  'password.error.no_special_char': 'must contain a punctuation character such as ! ? - _ .',
  'password.error.personal': "must not be made of the user's e-mail address, name or the portal's name",
  'password.error.common': 'is too easy to guess: a common password, even with letters changed or characters added',
};

const CreateUserArgs = z
  .object({
    type: z.enum(STAFF_TYPES, {
      error: (issue) => `${issue.input === undefined ? 'is required: ' : 'must be '}one of ${STAFF_TYPES.join(', ')}`,
    }),
    email: z
      .string({ error: 'is required' })
      .trim()
      .toLowerCase()
      .max(254)
      .pipe(z.email({ error: 'is not a valid e-mail address' })),
    password: z.string({ error: 'is required' }),
    name: z.string({ error: 'is required' }).trim().min(1, 'must not be empty').max(200),
    locale: z.enum(['en', 'fr'], { error: 'must be en or fr' }).default('en'),
  })
  .superRefine((values, ctx) => {
    // the whole rule, as the service applies it, told in the operator's words
    const problem = passwordProblem(values.password, { email: values.email, names: [values.name] });
    if (problem)
      ctx.addIssue({ code: 'custom', path: ['password'], message: `${PASSWORD_TEXT[problem]} (${problem})` });
  });

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;

/**
 * The services' logger for one command: JSON lines on standard error at LOG_LEVEL and above, so
 * standard output keeps only what scripts capture.
 */
function cliLogger(level: string, err: (line: string) => void, bindings = {}): Logger {
  const index = LEVELS.indexOf(level as (typeof LEVELS)[number]);
  // 'silent' and anything unknown log nothing
  const threshold = index === -1 ? LEVELS.length : index;
  const write = (name: (typeof LEVELS)[number]) => (first?: unknown, message?: unknown) => {
    if (LEVELS.indexOf(name) < threshold) return;
    const fields = typeof first === 'object' && first !== null ? first : { msg: first };
    const msg = typeof message === 'string' ? { msg: message } : {};
    err(JSON.stringify({ level: name, time: Date.now(), ...bindings, ...fields, ...msg }));
  };
  const logger = {
    level,
    silent: () => {},
    child: (more: object) => cliLogger(level, err, { ...bindings, ...more }),
    ...Object.fromEntries(LEVELS.map((name) => [name, write(name)])),
  };
  return logger as unknown as Logger;
}

/** The configuration, or the command's error naming what is wrong with it (no stack trace). */
function configOrCliError(): ReturnType<typeof loadConfig> {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(error.message);
    throw error;
  }
}

/** The services' context on the configured database, migrated, for the length of one command. */
async function withContext<T>(io: CliIo, work: (ctx: AppContext) => Promise<T>): Promise<T> {
  const config = configOrCliError();
  // Loaded here, not at the top: usage and argument errors answer without loading the whole portal.
  const [{ migrateToLatest, openDatabase }, { createContext }] = await Promise.all([
    import('./db'),
    import('./compose'),
  ]);
  const database = openDatabase(config.databaseUrl);
  const ctx = createContext({ config, database, log: cliLogger(config.logLevel, io.err) });
  try {
    await migrateToLatest(database);
    // work a command queues (a mail) is delivered by the portal's nodes
    await ctx.jobs.prepare();
    return await work(ctx);
  } catch (error) {
    // A refusal of the service (e.g. the e-mail is taken) is the operator's to read, not a crash.
    if (error instanceof HttpError && error.statusCode < 500) throw new CliError(error.message);
    throw error;
  } finally {
    await ctx.mail.close();
    await database.close();
  }
}

function parseOptions<S extends z.ZodType>(schema: S, args: string[], names: string[]): z.output<S> {
  let values: Record<string, unknown>;
  try {
    values = parseArgs({
      args,
      options: Object.fromEntries(names.map((name) => [name, { type: 'string' as const }])),
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    throw new CliError((error as Error).message, 2);
  }
  const parsed = schema.safeParse(values);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  --${issue.path.join('.')} ${issue.message}`);
    throw new CliError(`Invalid arguments:\n${lines.join('\n')}`, 2);
  }
  return parsed.data;
}

/** What a key rotation answers: the new key, and the one it retired (still published). */
interface RotatedKey {
  keyId: string;
  retiredKeyId: string | null;
}

/** A signing key's rotation: no options, a sentence for the operator, the new key id alone on stdout (for scripts). */
function rotateKeyCommand(spec: {
  summary: string;
  usage: string;
  rotate: (ctx: AppContext) => Promise<RotatedKey>;
  told: (rotated: RotatedKey) => string;
}): Command {
  return {
    summary: spec.summary,
    usage: spec.usage,
    async run(args, io) {
      parseOptions(z.object({}), args, []);
      const rotated = await withContext(io, spec.rotate);
      io.err(spec.told(rotated));
      io.out(rotated.keyId);
    },
  };
}

const commands: Record<string, Command> = {
  'create-user': {
    summary: 'create an enabled staff user with a password (e.g. the first admin)',
    usage:
      "create-user --type <admin|accountExecutive|productManager|supportEngineer> --email <e-mail> --password '<password>' --name '<full name>' [--locale en|fr]",
    async run(args, io) {
      const input = parseOptions(CreateUserArgs, args, ['type', 'email', 'password', 'name', 'locale']);
      // The same service as POST /api/users; the system actor may set the password directly.
      const user = await withContext(io, async (ctx) => {
        try {
          const { createUser } = await import('./modules/users/service');
          return await createUser(ctx, systemActor('cli'), {
            email: input.email,
            fullname: input.name,
            type: input.type,
            preferredLocale: input.locale,
            password: input.password,
          });
        } catch (error) {
          if (error instanceof HttpError && error.code === ERROR_CODES.emailTaken)
            throw new CliError(`A user with the e-mail ${input.email} already exists`);
          throw error;
        }
      });
      // the id alone on stdout, so scripts can capture it; the sentence is for the operator
      io.err(`Created ${user.type} ${user.email} (id ${user.id})`);
      io.out(String(user.id));
    },
  },
  'rotate-licence-key': rotateKeyCommand({
    summary: 'sign licence files with a new key; the previous one stays published (docs/licence-files.md)',
    usage: 'rotate-licence-key',
    rotate: async (ctx) => (await import('./modules/licence-files/service')).rotateSigningKey(ctx, systemActor('cli')),
    told: (rotated) =>
      rotated.retiredKeyId
        ? `Licence files are now signed with key ${rotated.keyId}; key ${rotated.retiredKeyId} is retired and still published`
        : `Licence files are now signed with key ${rotated.keyId}`,
  }),
  'rotate-oidc-key': rotateKeyCommand({
    summary:
      'sign OpenID Connect tokens with a new key from the next start; the previous one stays published (docs/oidc.md)',
    usage: 'rotate-oidc-key',
    rotate: async (ctx) => (await import('./modules/oidc/signing-keys')).rotateOidcSigningKey(ctx, systemActor('cli')),
    told: (rotated) =>
      `OpenID Connect tokens are signed with key ${rotated.keyId} once the portal restarts` +
      (rotated.retiredKeyId ? `; key ${rotated.retiredKeyId} is retired and still published for 30 days` : ''),
  }),
};

const BackupArgs = z.object({ to: z.string({ error: 'is required: the folder to write the backup into' }).min(1) });
const RestoreArgs = z.object({ from: z.string({ error: 'is required: the backup folder' }).min(1) });

/** A backup or restore that failed: its reason, without a stack trace, for the operator to act on. */
function failed(what: string, error: unknown): CliError {
  if (error instanceof CliError) return error;
  return new CliError(`${what} failed: ${error instanceof Error ? error.message : String(error)}`);
}

commands.backup = {
  summary: 'write a consistent backup (database, artifact folder, manifest) while the portal runs (docs/backup.md)',
  usage: 'backup --to <empty or new folder>',
  async run(args, io) {
    const input = parseOptions(BackupArgs, args, ['to']);
    const manifest = await withContext(io, async (ctx) => {
      const { createBackup } = await import('./modules/backup/backup');
      return createBackup(ctx, { to: input.to, progress: io.err }).catch((error: unknown) => {
        throw failed('Backup', error);
      });
    });
    io.err(
      `Backup written to ${input.to} (migration level ${manifest.migrationLevel}, ${manifest.files.length} files)`,
    );
    io.out(input.to);
  },
};

commands.restore = {
  summary: 'restore a backup into an empty database and artifact folder (docs/backup.md)',
  usage: 'restore --from <backup folder>',
  async run(args, io) {
    const input = parseOptions(RestoreArgs, args, ['from']);
    const config = configOrCliError();
    const { restoreBackup } = await import('./modules/backup/restore');
    await restoreBackup(config, { from: input.from, progress: io.err }).catch((error: unknown) => {
      throw failed('Restore', error);
    });
    io.err('Restore done: start the portal with the same SESSION_SECRET as the backed-up one');
  },
};

function usage(): string {
  const lines = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(18)} ${c.summary}\n      ${c.usage}`);
  return `Usage: npm run cli -- <command> [options]\n\nCommands:\n${lines.join('\n')}\n  help               this text`;
}

/** Runs one command line; returns the exit code. */
async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    io.out(usage());
    return 0;
  }
  const command = commands[name];
  if (!command) {
    io.err(`Unknown command "${name}".\n\n${usage()}`);
    return 2;
  }
  try {
    await command.run(args, io);
    return 0;
  } catch (error) {
    if (error instanceof CliError) {
      io.err(error.message);
      if (error.exitCode === 2) io.err(`\nUsage: npm run cli -- ${command.usage}`);
      return error.exitCode;
    }
    io.err(`${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const code = await runCli(process.argv.slice(2), {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  });
  process.exitCode = code;
}
