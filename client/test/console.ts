import { afterEach, beforeEach } from 'vitest';

/**
 * Unit tests fail on any console.error or console.warn they did not say they expect: React reports
 * an update outside act(), a key missing from a list or an error an error boundary caught there, and
 * such a report would otherwise scroll by in a green run. A test that expects one says so with
 * `expectConsoleError(text)` or `expectConsoleWarn(text)`: the message must then be written (at
 * least once) before the test ends, and any other one still fails it.
 */
type Level = 'error' | 'warn';

interface Expectation {
  level: Level;
  pattern: string | RegExp;
  seen: number;
}

let expectations: Expectation[] = [];
let unexpected: { level: Level; message: string }[] = [];

/** The message as the console prints it: `%s` and its kin replaced by their arguments. */
function consoleMessage(args: unknown[]): string {
  const [first, ...rest] = args;
  let text = typeof first === 'string' ? first : shown(first);
  if (typeof first === 'string') {
    text = first.replace(/%[sdifoOjc%]/g, (directive) => {
      if (directive === '%%') return '%';
      const value = rest.shift();
      return directive === '%c' ? '' : shown(value);
    });
  }
  return [text, ...rest.map(shown)].join(' ');
}

function shown(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  if (typeof value === 'string') return value;
  try {
    return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
  } catch {
    return String(value);
  }
}

function matches(pattern: string | RegExp, message: string): boolean {
  return typeof pattern === 'string' ? message.includes(pattern) : pattern.test(message);
}

function expectConsole(level: Level, pattern: string | RegExp): void {
  expectations.push({ level, pattern, seen: 0 });
}

/** The running test expects console.error to write a message holding this text (or matching it). */
export function expectConsoleError(pattern: string | RegExp): void {
  expectConsole('error', pattern);
}

/** The running test expects console.warn to write a message holding this text (or matching it). */
export function expectConsoleWarn(pattern: string | RegExp): void {
  expectConsole('warn', pattern);
}

/** Watches console.error and console.warn in each test of the file (client/test/setup.ts calls it). */
export function failOnUnexpectedConsole(): void {
  const originals = { error: console.error, warn: console.warn };
  beforeEach(() => {
    expectations = [];
    unexpected = [];
    for (const level of ['error', 'warn'] as const) {
      const original = originals[level];
      // replaced by hand rather than through vi.spyOn, which a file's vi.restoreAllMocks() would undo
      console[level] = (...args: unknown[]) => {
        const message = consoleMessage(args);
        const expectation = expectations.find((each) => each.level === level && matches(each.pattern, message));
        if (expectation) {
          expectation.seen += 1;
          return;
        }
        unexpected.push({ level, message });
        original.apply(console, args);
      };
    }
  });

  afterEach(() => {
    const reported = unexpected;
    const missed = expectations.filter((each) => each.seen === 0);
    console.error = originals.error;
    console.warn = originals.warn;
    expectations = [];
    unexpected = [];
    const problems = [
      // the first line of each: the console above shows them whole
      ...reported.map(({ level, message }) => `unexpected console.${level}: ${message.split('\n')[0]}`),
      ...missed.map(({ level, pattern }) => `expected a console.${level} matching ${String(pattern)}, none came`),
    ];
    if (problems.length > 0) {
      throw new Error(
        `${problems.join('\n')}\n(a test that expects one says so with expectConsoleError or expectConsoleWarn of client/test/console.ts)`,
      );
    }
  });
}
