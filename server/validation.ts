/**
 * Validation problems as the API answers them: `details[].message` is always a message key the client
 * translates (client/i18n/en.json and fr.json), with the `values` its text names; `error.message` is
 * the English text of the first problem, read from client/i18n/en.json, the one source of the words.
 *
 * A schema may name its own key (`errors.required`, `licences.errors.dataNotObject`); every other
 * problem zod finds (a wrong type, a value not in the list, a text too long) is given the generic key
 * of its kind here, while zod still has the input in hand (`issueKey`).
 */
import type { FastifySchemaCompiler } from 'fastify';
import { type $ZodIssue, type $ZodRawIssue, type $ZodType, safeParse } from 'zod/v4/core';
import en from '../client/i18n/en.json';
import { ERROR_CODES } from '../common/api/errors';
import { HttpError } from './http-error';

/** Values a key's text names (`{{max}}`), sent beside the key so that the client fills them in too. */
type MessageValues = Record<string, string | number>;

/** One problem of a request: the field it is about (dotted, '' for the request itself) and its key. */
interface Problem {
  path: string;
  message: string;
  values?: MessageValues;
}

/** The generic keys, one per kind of problem; each has an English and a French text. */
export const VALIDATION_KEYS = {
  required: 'errors.required',
  invalid: 'errors.invalidField',
  invalidType: 'errors.invalidType',
  invalidOption: 'errors.invalidOption',
  invalidFormat: 'errors.invalidFormat',
  email: 'email.invalid',
  unknownField: 'errors.unknownField',
  tooShort: 'errors.tooShort',
  tooLong: 'errors.tooLong',
  tooFew: 'errors.tooFew',
  tooMany: 'errors.tooMany',
  tooSmall: 'errors.tooSmall',
  tooSmallExclusive: 'errors.tooSmallExclusive',
  tooBig: 'errors.tooBig',
  tooBigExclusive: 'errors.tooBigExclusive',
} as const;

const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/g;

/** The English text of a message key, as written in client/i18n/en.json; undefined when it has none. */
export function englishTextOf(key: string): string | undefined {
  let node: unknown = en;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, part)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** Whether `message` is a key with a text (not a section of texts, not a sentence). */
const isMessageKey = (message: string): boolean => englishTextOf(message) !== undefined;

/** The English text of a problem: its key's text with its values filled in. */
function englishMessage(problem: Problem): string {
  const text = englishTextOf(problem.message) ?? englishTextOf(VALIDATION_KEYS.invalid)!;
  const filled = text.replace(PLACEHOLDER, (placeholder, name: string) =>
    problem.values && Object.hasOwn(problem.values, name) ? String(problem.values[name]) : placeholder,
  );
  return problem.path ? `${problem.path}: ${filled}` : filled;
}

/** A 400 naming each problem; its message is the first problem's English text. */
function invalidInput(problems: Problem[]): HttpError {
  const message = problems.length > 0 ? englishMessage(problems[0]) : 'Invalid request';
  return new HttpError(400, ERROR_CODES.validation, message, problems);
}

/** A 400 about one field, with the key of its rule (and the values the key's text names). */
export const invalidField = (path: string, key: string, values?: MessageValues): HttpError =>
  invalidInput([{ path, message: key, ...(values ? { values } : {}) }]);

/** The generic key of a problem zod found, from its kind (and whether the value was missing, when known). */
function keyOfKind(issue: $ZodIssue | $ZodRawIssue, missing = false): string {
  switch (issue.code) {
    case 'invalid_type':
      return missing ? VALIDATION_KEYS.required : VALIDATION_KEYS.invalidType;
    case 'invalid_value':
      return VALIDATION_KEYS.invalidOption;
    case 'invalid_format':
      return issue.format === 'email' ? VALIDATION_KEYS.email : VALIDATION_KEYS.invalidFormat;
    case 'unrecognized_keys':
      return VALIDATION_KEYS.unknownField;
    case 'too_small': {
      const origin: string = issue.origin;
      if (origin === 'string') return Number(issue.minimum) <= 1 ? VALIDATION_KEYS.required : VALIDATION_KEYS.tooShort;
      if (origin === 'array' || origin === 'set') return VALIDATION_KEYS.tooFew;
      return issue.inclusive === false ? VALIDATION_KEYS.tooSmallExclusive : VALIDATION_KEYS.tooSmall;
    }
    case 'too_big': {
      const origin: string = issue.origin;
      if (origin === 'string') return VALIDATION_KEYS.tooLong;
      if (origin === 'array' || origin === 'set') return VALIDATION_KEYS.tooMany;
      return issue.inclusive === false ? VALIDATION_KEYS.tooBigExclusive : VALIDATION_KEYS.tooBig;
    }
    default:
      return VALIDATION_KEYS.invalid;
  }
}

/**
 * The error map of every request parse: the key of a problem whose schema names none. zod calls it
 * with the input, so a missing value (required) is told from one of the wrong type.
 */
const issueKey = (issue: $ZodRawIssue): string => keyOfKind(issue, issue.input === undefined);

/** The values an issue's text may name: its bounds, the allowed values, a refinement's own params. */
function valuesOf(issue: $ZodIssue): MessageValues {
  switch (issue.code) {
    case 'too_small':
      return { min: Number(issue.minimum) };
    case 'too_big':
      return { max: Number(issue.maximum) };
    case 'invalid_value':
      return { allowed: issue.values.map(String).join(', ') };
    case 'custom': {
      const values: MessageValues = {};
      for (const [name, value] of Object.entries(issue.params ?? {})) {
        if (typeof value === 'string' || typeof value === 'number') values[name] = value;
      }
      return values;
    }
    default:
      return {};
  }
}

/** Only the values the key's text names. */
function namedValues(key: string, values: MessageValues): MessageValues | undefined {
  const named = [...(englishTextOf(key) ?? '').matchAll(PLACEHOLDER)].map((match) => match[1]);
  const kept = Object.fromEntries(
    named.filter((name) => Object.hasOwn(values, name)).map((name) => [name, values[name]]),
  );
  return Object.keys(kept).length > 0 ? kept : undefined;
}

const dotted = (path: readonly PropertyKey[]) => path.map(String).join('.');

/**
 * The problems of a failed parse, each with a key: the schema's own when it is one, else the key of
 * its kind (a sentence a schema gave, or zod's default, never reaches the answer). An unknown field
 * is a problem of that field. `prefix` names where the parsed value sits in the request.
 */
function problemsOf(issues: readonly $ZodIssue[], prefix: readonly PropertyKey[] = []): Problem[] {
  return issues.flatMap((issue): Problem[] => {
    const key = isMessageKey(issue.message) ? issue.message : keyOfKind(issue);
    const values = namedValues(key, valuesOf(issue));
    const problem = (path: readonly PropertyKey[]): Problem => ({
      path: dotted([...prefix, ...path]),
      message: key,
      ...(values ? { values } : {}),
    });
    if (issue.code === 'unrecognized_keys') return issue.keys.map((name) => problem([...issue.path, name]));
    return [problem(issue.path)];
  });
}

/** Parses `value` as a request's input: its value, or the 400 that names its problems. */
export function parseInput<T>(
  schema: $ZodType<T>,
  value: unknown,
  prefix: readonly PropertyKey[] = [],
): { value: T } | { error: HttpError } {
  const result = safeParse(schema, value, { error: issueKey });
  return result.success ? { value: result.data } : { error: invalidInput(problemsOf(result.error.issues, prefix)) };
}

/**
 * The routes' validator: each request part parsed with its zod schema. A refusal is the 400 itself,
 * which the error handler sends as it is (Fastify passes an Error on untouched).
 */
export const validatorCompiler: FastifySchemaCompiler<$ZodType> =
  ({ schema }) =>
  (data) =>
    parseInput(schema, data);
