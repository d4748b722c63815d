/** Password rule (decisions.md): 15 to 256 characters, lower, upper, digit, punctuation, in that order. */
export const PASSWORD_MIN_LENGTH = 15;
export const PASSWORD_MAX_LENGTH = 256;

export type PasswordError =
  | 'password.error.too_short'
  | 'password.error.too_long'
  | 'password.error.no_lowercase'
  | 'password.error.no_uppercase'
  | 'password.error.no_number'
  | 'password.error.no_special_char';

/** Returns the first failing rule's key, or null when the password is acceptable. */
export function checkPassword(password: string): PasswordError | null {
  if (password.length < PASSWORD_MIN_LENGTH) return 'password.error.too_short';
  if (password.length > PASSWORD_MAX_LENGTH) return 'password.error.too_long';
  if (!/\p{Ll}/u.test(password)) return 'password.error.no_lowercase';
  if (!/\p{Lu}/u.test(password)) return 'password.error.no_uppercase';
  if (!/\p{Nd}/u.test(password)) return 'password.error.no_number';
  if (!/[\p{P}\p{S}]/u.test(password)) return 'password.error.no_special_char';
  return null;
}
