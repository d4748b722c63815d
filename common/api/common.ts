import { z } from 'zod/mini';
import { DEFAULT_PAGE_LENGTH, MAX_PAGE_LENGTH } from '../pagination';
import { checkPassword, isMadeOfContext, type PasswordContext } from '../password';

/**
 * Messages of the schemas that forms share are message keys (client/i18n): the server sends them in
 * `details`, and the client's forms run the same schemas and show the keys' texts.
 */
export const REQUIRED = 'errors.required';
export const GIVEN_ONCE = 'errors.givenOnce';
const WHOLE_NUMBER = 'errors.wholeNumber';

/**
 * The error map of a field a form must fill: a missing value is required; any other problem keeps the
 * message of its check, or the key of its kind (server/validation.ts). A map rather than a message, as
 * a schema's message would also name the problems of its checks (a text too long).
 */
export const requiredIfMissing = (issue: { code?: string; input?: unknown }) =>
  issue.code === 'invalid_type' && (issue.input === undefined || issue.input === null) ? REQUIRED : undefined;

/**
 * The error map of a query parameter's schema: a parameter given twice arrives as an array, and is
 * told so; any other problem keeps the key of its kind (server/validation.ts). A map rather than a
 * message, as a schema's message would also name the problems of its checks (a text too long).
 */
export const givenOnce = (issue: { code?: string; input?: unknown }) =>
  Array.isArray(issue.input) && (issue.code === 'invalid_type' || issue.code === 'invalid_value')
    ? GIVEN_ONCE
    : undefined;

export const Email = z.pipe(
  z.string().check(z.trim(), z.toLowerCase(), z.minLength(1, REQUIRED), z.maxLength(254)),
  z.email({ message: 'email.invalid' }),
);

/** A text a person must fill in (a name): spaces alone do not count. */
export const RequiredText = (max: number) => z.string().check(z.trim(), z.minLength(1, REQUIRED), z.maxLength(max));

/** A password that follows the rule; the message is the first failing rule's key. */
export const NewPassword = z.string().check(
  z.superRefine((value: string, ctx) => {
    const problem = checkPassword(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
);

/**
 * The personal part of the password rule (decision 085) on a form, before anything is sent: a
 * password made of the account's context (what the form knows of it: an address, names, some typed
 * in the form itself) is refused on its field, with the server's key. The common-password part needs
 * the server's list; its refusal comes back on the same field.
 */
export const passwordFitsContext = <T extends Record<string, unknown>>(
  field: keyof T & string,
  contextOf: (values: T) => PasswordContext,
) =>
  z.refine<T>(
    (values) => {
      const password = values[field];
      if (typeof password !== 'string' || checkPassword(password) !== null) return true;
      return !isMadeOfContext(password, contextOf(values));
    },
    {
      path: [field],
      message: 'password.error.personal',
      // checked while another field is still wrong (a confirmation not typed yet)
      when: (payload) => typeof (payload.value as Record<string, unknown> | undefined)?.[field] === 'string',
    },
  );

/** A form's `confirmation` must repeat its `password` (the client's concern only: it is never sent). */
export const confirmationMatches = <T extends { password: string; confirmation: string }>() =>
  z.refine<T>((values) => values.confirmation === values.password, {
    path: ['confirmation'],
    message: 'errors.passwordMismatch',
    // Compared even while the password breaks a rule, so both problems show at once.
    when: (payload) => {
      const value = payload.value as { password?: unknown; confirmation?: unknown } | undefined;
      return typeof value?.password === 'string' && typeof value.confirmation === 'string';
    },
  });

/** Ids are PostgreSQL `integer` columns: a larger number can name no row and must not reach the database. */
export const MAX_ID = 2_147_483_647;

/**
 * A whole number as a query string or a path carries it: decimal digits only. Number() would also
 * take "", " ", "0x10" and "1e3", and a repeated query parameter arrives as an array.
 */
export const wholeNumber = (min: number, max: number) =>
  z.pipe(
    z.pipe(z.string({ error: givenOnce }).check(z.regex(/^\d+$/, WHOLE_NUMBER)), z.transform(Number)),
    z.number().check(z.minimum(min), z.maximum(max)),
  );

export const PageQuery = z.object({
  pageOffset: z._default(wholeNumber(0, MAX_ID), 0),
  pageLength: z._default(wholeNumber(1, MAX_PAGE_LENGTH), DEFAULT_PAGE_LENGTH),
  filter: z.optional(z.string({ error: givenOnce }).check(z.trim(), z.maxLength(200))),
});

export const IdParam = z.object({ id: wholeNumber(1, MAX_ID) });

/**
 * The one envelope of a paged list (spec section 3, "List responses": data with offset and total),
 * the users list aside, whose shape the spec fixes. `totalCapped`: the count stopped at `total` and
 * there are more (common/pagination countCap, decision 013); false where a list counts exactly.
 */
export const listOf = <Item extends z.core.SomeType>(item: Item) =>
  z.object({ data: z.array(item), offset: z.int(), total: z.int(), totalCapped: z.boolean() });

export const Ok = z.object({ ok: z.literal(true) });
