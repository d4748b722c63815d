/** customerKey (decisions.md): exactly 10 characters, unique; generated from an unambiguous alphabet. */
export const CUSTOMER_KEY_LENGTH = 10;
/** Uppercase letters and digits without 0/O, 1/I/L that read alike. */
export const CUSTOMER_KEY_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

export function isValidCustomerKey(key: string): boolean {
  return [...key].length === CUSTOMER_KEY_LENGTH;
}

/** `randomInt(n)` must return a uniform integer in [0, n): crypto on the server. */
export function generateCustomerKey(randomInt: (n: number) => number): string {
  let key = '';
  for (let i = 0; i < CUSTOMER_KEY_LENGTH; i++) key += CUSTOMER_KEY_ALPHABET[randomInt(CUSTOMER_KEY_ALPHABET.length)];
  return key;
}
