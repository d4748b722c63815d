import type { HTTPMethods } from 'fastify';
import { ROLES, type Role } from '../common/roles';

/**
 * The authorisation matrix: for every API route, what each kind of caller gets. It is written out
 * by hand, role by role, on purpose: deriving it from common/permissions.ts would only check the
 * table against itself. server/authorization.test.ts calls every route as every actor and compares.
 *
 * - 'allow': the access rules let the caller through (any answer but 401 and 403; never a 5xx)
 * - 401 / 403 / 404: exactly that status (404 where a customer's existence is hidden from outsiders)
 *
 * A route whose access depends on a customer (`access.customer(...)`) gives two columns sets: the
 * caller's own customer (where the client roles and the account executive are members) and another
 * customer (where nobody is a member).
 */
export const ACTORS = ['anonymous', ...ROLES] as const;
export type Actor = (typeof ACTORS)[number];
export type Outcome = 'allow' | 401 | 403 | 404;
export type Expectations = Record<Actor, Outcome>;

export interface Fixture {
  /** a customer every member actor belongs to, and one nobody belongs to */
  ownCustomerId: number;
  otherCustomerId: number;
  /** a staff user nobody signs in as, for routes about one user */
  targetUserId: number;
  /** a user whose credentials the sign-in row uses, so actors' own sessions are not involved */
  loginUser: { email: string; password: string };
  /** a fresh value per call, for fields that must be unique */
  unique: () => string;
}

export interface CallOptions {
  url?: string;
  payload?: unknown;
}

export interface MatrixRow {
  method: HTTPMethods;
  /** as Fastify reports it, with :params */
  url: string;
  expect: Expectations | { ownCustomer: Expectations; otherCustomer: Expectations };
  /** a concrete URL and a valid body, so a 400 does not hide a 401 or 403 */
  call?: (fixture: Fixture, scope: { customerId: number }) => CallOptions;
  /** the call replaces or ends the caller's session, which must sign in again afterwards */
  endsSession?: boolean;
}

const everyone = (outcome: Outcome): Expectations =>
  Object.fromEntries(ACTORS.map((actor) => [actor, outcome])) as Expectations;

/** public: anyone, signed in or not */
const anyone = everyone('allow');
/** any signed-in user */
const signedIn: Expectations = { ...everyone('allow'), anonymous: 401 };
/** the given roles; other signed-in users are refused */
const only = (...roles: Role[]): Expectations => ({
  ...everyone(403),
  anonymous: 401,
  ...Object.fromEntries(roles.map((role) => [role, 'allow'])),
});

export const MATRIX: MatrixRow[] = [
  // ---- system
  { method: 'GET', url: '/api/health', expect: anyone },
  { method: 'GET', url: '/api/config', expect: anyone },

  // ---- auth (server/modules/auth)
  {
    method: 'POST',
    url: '/api/auth/login',
    expect: anyone,
    call: (f) => ({ payload: f.loginUser }),
    endsSession: true,
  },
  { method: 'POST', url: '/api/auth/logout', expect: anyone, endsSession: true },
  { method: 'GET', url: '/api/auth/me', expect: signedIn },
  { method: 'PATCH', url: '/api/auth/me', expect: signedIn, call: () => ({ payload: { preferredLocale: 'en' } }) },
  {
    method: 'POST',
    url: '/api/auth/request-password-reset',
    expect: anyone,
    call: (f) => ({ payload: { email: `nobody-${f.unique()}@example.com`, recaptchaResponse: 'not-solved' } }),
  },
  {
    method: 'GET',
    url: '/api/auth/check-password-reset',
    expect: anyone,
    call: () => ({ url: '/api/auth/check-password-reset?passwordResetToken=unknown-token' }),
  },
  {
    method: 'PATCH',
    url: '/api/auth/reset-password',
    expect: anyone,
    call: () => ({ payload: { passwordResetToken: 'unknown-token', password: 'A-Valid-Password-123' } }),
  },
  { method: 'GET', url: '/api/captcha/challenge', expect: anyone },
  {
    method: 'GET',
    url: '/api/jwt/redirect',
    expect: signedIn,
    call: () => ({ url: `/api/jwt/redirect?to=${encodeURIComponent('https://support.example.com/hc')}` }),
  },

  // ---- users (server/modules/users): the Users page, admins only
  { method: 'GET', url: '/api/users', expect: only('admin') },
  {
    method: 'POST',
    url: '/api/users',
    expect: only('admin'),
    call: (f) => ({ payload: { email: `matrix-${f.unique()}@example.com`, fullname: 'Matrix User' } }),
  },
  {
    method: 'GET',
    url: '/api/users/:id',
    expect: only('admin'),
    call: (f) => ({ url: `/api/users/${f.targetUserId}` }),
  },
  {
    method: 'PATCH',
    url: '/api/users/:id',
    expect: only('admin'),
    call: (f) => ({ url: `/api/users/${f.targetUserId}`, payload: { fullname: 'Target User' } }),
  },
];
