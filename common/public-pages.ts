import { LOCALES } from './roles';

/**
 * The pages a visitor opens first (login, password-lost, reset-password, and sign-up, decision 067;
 * and the OpenID Connect consent page, reached from the login page before the application, decision 070):
 * the server answers them with public.html, a light page of their own without the signed-in
 * application's libraries; every other page path gets index.html (decision 024), the sign-up's
 * confirmation included.
 */
const PUBLIC_PAGE = new RegExp(
  `^/(${LOCALES.join('|')})/(login|password-lost|reset-password/[^/?#]+|sign-up|consent)/?$`,
);

export function isPublicPage(pathname: string): boolean {
  return PUBLIC_PAGE.test(pathname);
}
