import { sql } from 'kysely';

/**
 * `lower(<column>) = lower(?)`: e-mail addresses are one account whatever their case, and this exact
 * form is what the expression indexes on lower(email) serve (a plain `email = ?` would miss both the
 * index and differently cased addresses).
 */
export function emailEquals(email: string, column = 'email') {
  return sql<boolean>`lower(${sql.ref(column)}) = lower(${email})`;
}
