/**
 * Where the support desk sends the user once signed in (its `return_to`): only an address on the
 * desk's own origin. Relative targets are read against the desk's address; anything that is not an
 * http(s) address there (another origin, `//evil`, `javascript:`, credentials in the address, a
 * backslash or control character trick) gives the desk's home instead, so the hand-off never leads
 * anywhere but the desk.
 */
export function deskReturnTo(target: string | undefined, deskUrl: string): string {
  const home = new URL(deskUrl);
  if (!target) return home.toString();
  // A browser reads "\" as "/" and drops tabs and newlines: refuse them rather than guess.
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(target)) return home.toString();
  let url: URL;
  try {
    url = new URL(target, home);
  } catch {
    return home.toString();
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return home.toString();
  if (url.origin !== home.origin || url.username !== '' || url.password !== '') return home.toString();
  return url.toString();
}
