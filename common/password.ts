/**
 * Password rule (decisions.md, decision 085): 15 to 256 characters, lower, upper, digit, punctuation,
 * in that order; then nothing made of the account's own context (its e-mail address, its name, the
 * portal's name), even with simple variations. The server also refuses common and breached passwords
 * (server/modules/auth/password-rule.ts), with a list too heavy for the sign-in pages.
 */
export const PASSWORD_MIN_LENGTH = 15;
export const PASSWORD_MAX_LENGTH = 256;

export type PasswordError =
  | 'password.error.too_short'
  | 'password.error.too_long'
  | 'password.error.no_lowercase'
  | 'password.error.no_uppercase'
  | 'password.error.no_number'
  | 'password.error.no_special_char'
  | 'password.error.personal'
  | 'password.error.common';

/** What a password may not be made of: the account's address and names, as far as they are known. */
export interface PasswordContext {
  email?: string | null;
  names?: readonly (string | null | undefined)[];
}

/** The words of the portal's name, in English and French (client/i18n: `app.name`). */
export const PORTAL_NAME_WORDS = ['graph', 'portal', 'portail'] as const;

/** Leetspeak read back as letters. */
const LEET: Record<string, string> = {
  '0': 'o',
  '1': 'i',
  '2': 'z',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '6': 'g',
  '7': 't',
  '8': 'b',
  '9': 'g',
  '@': 'a',
  $: 's',
  '!': 'i',
  '|': 'l',
  '+': 't',
  '€': 'e',
};

/** Lower case, without accents: how words are compared. */
const folded = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

const lettersOnly = (text: string) => text.replace(/[^\p{L}]/gu, '');
const deLeet = (text: string) => [...text].map((c) => LEET[c] ?? c).join('');

/**
 * The readings of a password once its simple variations are undone: case and accents ignored, the
 * digits and symbols added before or after it dropped, leetspeak read as letters. Each reading keeps
 * letters only.
 */
export function passwordReadings(password: string): string[] {
  const text = folded(password);
  const trimmed = text.replace(/^[^\p{L}]+/u, '').replace(/[^\p{L}]+$/u, '');
  const readings = new Set([
    lettersOnly(deLeet(trimmed)),
    lettersOnly(deLeet(text)),
    lettersOnly(trimmed),
    // leetspeak at the ends too (`P@ssw0rd` ends with a letter, `4dmin` starts with a digit)
    lettersOnly(
      deLeet(text)
        .replace(/^[^\p{L}]+/u, '')
        .replace(/[^\p{L}]+$/u, ''),
    ),
  ]);
  return [...readings].filter((reading) => reading.length > 0);
}

/** The words of the context, folded, letters only, three letters or more; longest first. */
function contextWords(context: PasswordContext): string[] {
  const words = new Set<string>(PORTAL_NAME_WORDS);
  const add = (text: string) => {
    const whole = lettersOnly(folded(text));
    if (whole.length >= 3) words.add(whole);
    for (const part of folded(text).split(/[^\p{L}]+/u)) if (part.length >= 3) words.add(part);
  };
  if (context.email) {
    const at = context.email.lastIndexOf('@');
    add(at === -1 ? context.email : context.email.slice(0, at));
    if (at !== -1) add(context.email.slice(at + 1));
  }
  for (const name of context.names ?? []) if (name) add(name);
  return [...words].sort((a, b) => b.length - a.length);
}

/** Fewer letters than this left once the context's words are taken out: the password is made of them. */
const OWN_LETTERS_MIN = 4;

/** Whether a password is made of the context's words (with simple variations), little else besides. */
export function isMadeOfContext(password: string, context: PasswordContext): boolean {
  const words = contextWords(context);
  return passwordReadings(password).some((reading) => {
    let left = reading;
    for (const word of words) left = left.replaceAll(word, '');
    return left.length < OWN_LETTERS_MIN && left.length < reading.length;
  });
}

/** Returns the first failing rule's key, or null when the password is acceptable here. */
export function checkPassword(password: string, context: PasswordContext = {}): PasswordError | null {
  if (password.length < PASSWORD_MIN_LENGTH) return 'password.error.too_short';
  if (password.length > PASSWORD_MAX_LENGTH) return 'password.error.too_long';
  if (!/\p{Ll}/u.test(password)) return 'password.error.no_lowercase';
  if (!/\p{Lu}/u.test(password)) return 'password.error.no_uppercase';
  if (!/\p{Nd}/u.test(password)) return 'password.error.no_number';
  if (!/[\p{P}\p{S}]/u.test(password)) return 'password.error.no_special_char';
  if (isMadeOfContext(password, context)) return 'password.error.personal';
  return null;
}
