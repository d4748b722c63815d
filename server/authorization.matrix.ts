import type { HTTPMethods } from 'fastify';
import { addDays, utcToday } from '../common/licence-status';
import type { Platform } from '../common/domain';
import { type MemberRole, ROLES, type Role } from '../common/roles';

/**
 * The authorisation matrix: for every API route, and every route outside /api that declares an
 * access rule (`GET /metrics`), what each kind of caller gets. It is written out
 * by hand, role by role, on purpose: deriving it from common/permissions.ts would only check the
 * table against itself. server/authorization.test.ts calls every route as every actor and compares.
 *
 * - 'allow': the call succeeds: a 2xx status, or exactly the row's `success` status (a redirect).
 *   Each row's `call` therefore gives a request that works (a valid body, a live token, a solved
 *   captcha), so a route that refuses everyone with some other status cannot pass for "allowed".
 * - 400: the OpenID Connect provider's own refusal of a credential it cannot read (its POST row)
 * - 302 / 401 / 403 / 404: exactly that status (404 where a customer's existence is hidden from outsiders;
 *   302 where a visitor is sent to sign in first)
 *
 * Actors: anonymous, one user per role, and two who must get nothing of a customer: an account
 * executive who is the account executive of a third customer only, and a client whose (project
 * manager) membership of the own customer is disabled.
 *
 * A route whose access depends on a customer (`access.customer(...)`) gives two column sets: the
 * caller's own customer (where the account executive and the client roles are members) and another
 * customer (where nobody is a member).
 */
export const ACTORS = ['anonymous', ...ROLES, 'otherAccountExecutive', 'disabledMember'] as const;
export type Actor = (typeof ACTORS)[number];
export type Outcome = 'allow' | 302 | 400 | 401 | 403 | 404;
export type Expectations = Record<Actor, Outcome>;

export interface Fixture {
  /** a customer every member actor belongs to, and one nobody belongs to */
  ownCustomerId: number;
  otherCustomerId: number;
  /** a staff user nobody signs in as, for routes about one user */
  targetUserId: number;
  /**
   * an enabled user of type accountExecutive nobody signs in as, to be made a customer's account
   * executive; before each call the own customer gets its account executive actor back, whom the
   * previous call replaced
   */
  accountExecutiveUserId: () => Promise<number>;
  /** a user whose credentials the sign-in row uses, so actors' own sessions are not involved */
  loginUser: { email: string; password: string };
  /** the password every actor signs in with, for routes that ask for it again */
  actorPassword: string;
  /** a fresh value per call, for fields that must be unique */
  unique: () => string;
  /** a live password-reset token of a user nobody signs in as (a fresh one per call) */
  resetToken: () => Promise<string>;
  /** a solved captcha, as the web client sends it */
  captcha: () => Promise<string>;
  /** a live e-mail change token of a fresh user nobody signs in as, to a fresh address */
  emailChangeToken: () => Promise<string>;
  /** by customer id (own and other): a technicalContact membership of a user nobody signs in as */
  membershipIds: Record<number, number>;
  /** the key of a live invitation to `email` (a fresh address if none) into a fresh customer */
  invitationKey: (email?: string | null, role?: MemberRole) => Promise<string>;
  /** the key of a fresh pending self-service sign-up of a fresh address */
  signupKey: () => Promise<string>;
  /** a fresh enabled technical-contact membership of the customer, of a user nobody signs in as */
  member: (customerId: number) => Promise<number>;
  /** a fresh pending invitation to the customer, with a link an admin can copy */
  invitation: (customerId: number) => Promise<number>;
  /** the key of a fresh product of customization type lke the customer holds a licence of */
  customizableProduct: (customerId: number) => Promise<string>;
  /** a fresh customization of the customer (of a fresh lke product it holds a licence of) */
  customization: (customerId: number) => Promise<number>;
  /**
   * Disables the memberships the actor gained from earlier rows (invitations it accepted), so that it
   * works on the customer its setup gave it alone; nothing for an actor without memberships
   */
  setUpMembershipsOnly: (actor?: Actor) => Promise<void>;
  /** the key of a fresh product nobody holds a licence of */
  product: () => Promise<string>;
  /** a fresh licence of the customer (of a fresh product), valid for a year */
  licence: (customerId: number) => Promise<number>;
  /** the key of a product the own and the other customer each hold a valid licence of */
  licensedProductKey: string;
  /** a product with an API token, `productToken`, which every row is also called with */
  tokenProductKey: string;
  productToken: string;
  /** the id of a fresh API token of `tokenProductKey` (not `productToken`) */
  productTokenId: () => Promise<number>;
  /** a fresh unpublished version of `tokenProductKey`; with an artifact of each platform given */
  unpublishedVersion: (platforms?: Platform[]) => Promise<number>;
  /** a published stable version of that product with a stored linux artifact */
  downloadableVersionId: number;
  /** the download secret of the own customer's licence of that product */
  ownDownloadSecret: string;
  /** the id of a fresh webhook endpoint */
  webhook: () => Promise<number>;
  /** a fresh cloud instance of the customer in the given status */
  instance: (customerId: number, status: 'provisioned' | 'archived') => Promise<number>;
  /** a fresh delivery of a fresh webhook endpoint */
  webhookDelivery: () => Promise<{ webhookId: number; deliveryId: number }>;
  /** a failed job (server/test/jobs.ts failedJobOf): one still failed while the test has one left */
  failedJob: () => Promise<{ name: string; id: string }>;
  /**
   * Makes the customer self-service in trial (its page and sections stay the same for every role),
   * known to the built-in test checkout when `known`, so that its payment routes succeed
   */
  selfService: (customerId: number, known?: boolean) => Promise<void>;
  /** a fresh open checkout of the built-in test checkout for the customer */
  testCheckout: (customerId: number) => Promise<string>;
  /** a fresh pending sign-in (its cookie) of a user nobody signs in as, and an unused recovery code */
  secondFactor: () => Promise<{ cookie: string; code: string }>;
  /** the body that adds a passkey for the actor's session (a software authenticator's); a dummy without one */
  passkey: (actor?: Actor) => Promise<object>;
  /** a code of an authenticator app the actor's session just started to set up; a dummy without one */
  totpCode: (actor?: Actor) => Promise<string>;
  /** the id of the actor's latest passkey; 1 without one */
  passkeyId: (actor?: Actor) => Promise<number>;
  /** a payment provider's event, signed with the portal's test checkout secret, about nobody here */
  stripeEvent: () => Promise<{ payload: object; headers: Record<string, string> }>;
  /**
   * A live OpenID Connect interaction (server/test/oidc.ts startInteraction) at its login prompt, or
   * at the consent prompt of the caller signed in; `cookie` holds the caller's session cookie and the
   * provider's interaction cookies
   */
  oidcInteraction: (actor: Actor | undefined, step: 'login' | 'consent') => Promise<{ uid: string; cookie: string }>;
}

/** The smallest configuration the lke schema accepts (docs/customizations.md). */
const LKE_CONFIG = { branding: { applicationName: 'Matrix' }, defaultLocale: 'en' };

/** Who calls, for rows whose request depends on the caller (an invitation sent to their address). */
interface CallScope {
  customerId: number;
  actor?: Actor;
  /** the caller's address; null for the anonymous visitor */
  actorEmail?: string | null;
}

export interface CallOptions {
  url?: string;
  payload?: unknown;
  headers?: Record<string, string>;
}

export interface MatrixRow {
  method: HTTPMethods;
  /** as Fastify reports it, with :params */
  url: string;
  expect: Expectations | { ownCustomer: Expectations; otherCustomer: Expectations };
  /** a concrete URL and a body the route accepts, so an allowed call succeeds */
  call?: (fixture: Fixture, scope: CallScope) => CallOptions | Promise<CallOptions>;
  /** what an allowed call answers, when that is not a 2xx status */
  success?: number;
  /**
   * for a route whose customer is optional (`access.customerIfGiven`, `access.customerOrDerived`):
   * what each caller gets when the request names no customer, and the request
   */
  withoutCustomer?: { expect: Expectations; call: NonNullable<MatrixRow['call']> };
  /** the call replaces or ends the caller's session, which must sign in again afterwards */
  endsSession?: boolean;
  /**
   * What a request with `Authorization: Bearer` and an API token of the row's product gets, signed
   * out (the `productToken` column). Unless given, what the anonymous caller gets: a product token
   * opens nothing but its product's upload route.
   */
  productToken?: Outcome;
  /**
   * What a request with `Authorization: Bearer <METRICS_TOKEN>` gets, signed out (the `metricsToken`
   * column). Unless given, what the anonymous caller gets: the metrics token opens nothing but /metrics.
   */
  metricsToken?: Outcome;
}

/** The METRICS_TOKEN of the portal the matrix is checked against (at least 32 characters). */
export const MATRIX_METRICS_TOKEN = 'matrix-metrics-token-0123456789abcdef';

const everyone = (outcome: Outcome): Expectations =>
  Object.fromEntries(ACTORS.map((actor) => [actor, outcome])) as Expectations;

/** public: anyone, signed in or not */
const anyone = everyone('allow');
/** any signed-in user */
const signedIn: Expectations = { ...everyone('allow'), anonymous: 401 };
/** visitors without a session only (spec 2's unauthenticated-only pages): signed-in users are refused */
const visitorsOnly: Expectations = { ...everyone(403), anonymous: 'allow' };
/** the given roles; other signed-in users are refused */
const only = (...roles: Role[]): Expectations => ({
  ...everyone(403),
  anonymous: 401,
  ...Object.fromEntries(roles.map((role) => [role, 'allow'])),
});

/**
 * A customer route open to the given roles in that customer. In the own customer, the other roles
 * are refused (403) and those without a role there get 404; in another customer only admins,
 * product managers and support engineers hold a role (their type), everyone else gets 404.
 */
const inCustomer = (...roles: Role[]): { ownCustomer: Expectations; otherCustomer: Expectations } => {
  const outcome = (role: Role): Outcome => (roles.includes(role) ? 'allow' : 403);
  const staff = {
    admin: outcome('admin'),
    productManager: outcome('productManager'),
    supportEngineer: outcome('supportEngineer'),
  };
  const noRole = { otherAccountExecutive: 404, disabledMember: 404 } as const;
  return {
    ownCustomer: {
      anonymous: 401,
      ...staff,
      accountExecutive: outcome('accountExecutive'),
      businessOwner: outcome('businessOwner'),
      technicalContact: outcome('technicalContact'),
      endUser: outcome('endUser'),
      ...noRole,
    },
    otherCustomer: {
      anonymous: 401,
      ...staff,
      accountExecutive: 404,
      businessOwner: 404,
      technicalContact: 404,
      endUser: 404,
      ...noRole,
    },
  };
};

export const MATRIX: MatrixRow[] = [
  // ---- system
  { method: 'GET', url: '/api/health', expect: anyone },
  { method: 'GET', url: '/api/ready', expect: anyone },
  { method: 'GET', url: '/api/config', expect: anyone },
  {
    method: 'GET',
    url: '/api/legal/:document',
    expect: anyone,
    call: () => ({ url: '/api/legal/terms-and-conditions?locale=fr' }),
  },
  // outside /api, for a Prometheus server: the METRICS_TOKEN opens it, a session does not (decision 064)
  { method: 'GET', url: '/metrics', expect: everyone(401), metricsToken: 'allow' },

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
    call: async (f) => ({
      payload: { email: `nobody-${f.unique()}@example.com`, recaptchaResponse: await f.captcha() },
    }),
  },
  {
    method: 'GET',
    url: '/api/auth/check-password-reset',
    expect: anyone,
    call: async (f) => ({ url: `/api/auth/check-password-reset?passwordResetToken=${await f.resetToken()}` }),
  },
  {
    method: 'PATCH',
    url: '/api/auth/reset-password',
    expect: anyone,
    call: async (f) => ({ payload: { passwordResetToken: await f.resetToken(), password: 'A-Valid-Password-123' } }),
  },
  {
    method: 'POST',
    url: '/api/auth/confirm-email',
    expect: anyone,
    call: async (f) => ({ payload: { token: await f.emailChangeToken() } }),
  },
  { method: 'GET', url: '/api/captcha/challenge', expect: anyone },
  // ---- two-factor sign-in (server/modules/two-factor); the rows run in this order: a factor
  // added by one row is removed by a later one, so the actors sign in with a password again
  {
    method: 'POST',
    url: '/api/auth/second-factor',
    expect: anyone,
    // the pending sign-in's cookie in place of the actor's session: this step opens a new one
    call: async (f) => {
      const { cookie, code } = await f.secondFactor();
      return { headers: { cookie }, payload: { method: 'recoveryCode', code } };
    },
  },
  { method: 'POST', url: '/api/auth/passkey/options', expect: anyone },
  { method: 'GET', url: '/api/auth/two-factor', expect: signedIn },
  { method: 'POST', url: '/api/auth/two-factor/passkeys/options', expect: signedIn },
  {
    method: 'POST',
    url: '/api/auth/two-factor/passkeys',
    expect: signedIn,
    call: async (f, scope) => ({ payload: await f.passkey(scope.actor) }),
  },
  {
    method: 'PATCH',
    url: '/api/auth/two-factor/passkeys/:id',
    expect: signedIn,
    call: async (f, scope) => ({
      url: `/api/auth/two-factor/passkeys/${await f.passkeyId(scope.actor)}`,
      payload: { name: 'Renamed key' },
    }),
  },
  {
    method: 'DELETE',
    url: '/api/auth/two-factor/passkeys/:id',
    expect: signedIn,
    call: async (f, scope) => ({
      url: `/api/auth/two-factor/passkeys/${await f.passkeyId(scope.actor)}`,
      payload: { password: f.actorPassword },
    }),
  },
  { method: 'POST', url: '/api/auth/two-factor/totp', expect: signedIn },
  {
    method: 'POST',
    url: '/api/auth/two-factor/totp/confirm',
    expect: signedIn,
    call: async (f, scope) => ({ payload: { code: await f.totpCode(scope.actor) } }),
  },
  { method: 'PATCH', url: '/api/auth/two-factor/totp', expect: signedIn, call: () => ({ payload: { name: 'Phone' } }) },
  {
    method: 'POST',
    url: '/api/auth/two-factor/recovery-codes',
    expect: signedIn,
    call: (f) => ({ payload: { password: f.actorPassword } }),
  },
  {
    method: 'DELETE',
    url: '/api/auth/two-factor/totp',
    expect: signedIn,
    call: (f) => ({ payload: { password: f.actorPassword } }),
  },
  // the support desk's hand-off page for a signed-in user; a visitor is sent to the login page (302)
  {
    method: 'GET',
    url: '/api/jwt/redirect',
    expect: { ...everyone('allow'), anonymous: 302 },
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
  {
    method: 'DELETE',
    url: '/api/users/:id/two-factor',
    expect: only('admin'),
    call: (f) => ({ url: `/api/users/${f.targetUserId}/two-factor` }),
  },

  // ---- search (server/modules/search): the staff's search box; what each finds is tested in search.test.ts
  {
    method: 'GET',
    url: '/api/search',
    expect: {
      ...only('admin', 'accountExecutive', 'productManager', 'supportEngineer'),
      otherAccountExecutive: 'allow',
    },
    call: () => ({ url: '/api/search?q=matrix' }),
  },

  // ---- customers (server/modules/customers)
  // every signed-in user; which customers each one sees is tested in customers/list.test.ts
  { method: 'GET', url: '/api/customers', expect: signedIn },
  {
    method: 'GET',
    url: '/api/customers/:id',
    expect: inCustomer(
      'admin',
      'accountExecutive',
      'productManager',
      'supportEngineer',
      'businessOwner',
      'technicalContact',
      'endUser',
    ),
    call: (_f, scope) => ({ url: `/api/customers/${scope.customerId}` }),
  },
  {
    method: 'GET',
    url: '/api/customers/:id/page',
    expect: inCustomer(
      'admin',
      'accountExecutive',
      'productManager',
      'supportEngineer',
      'businessOwner',
      'technicalContact',
      'endUser',
    ),
    call: (_f, scope) => ({ url: `/api/customers/${scope.customerId}/page` }),
  },
  {
    method: 'POST',
    url: '/api/customers/:id/sync',
    expect: inCustomer('admin', 'accountExecutive', 'productManager', 'supportEngineer'),
    // the matrix runs against a local Salesforce peer (server/test/salesforce-peer.ts): a sync succeeds
    call: (_f, scope) => ({ url: `/api/customers/${scope.customerId}/sync` }),
  },
  {
    method: 'POST',
    url: '/api/customers',
    expect: only('admin'),
    call: (f) => ({ payload: { name: `Matrix customer ${f.unique()}` } }),
  },
  {
    method: 'PATCH',
    url: '/api/customers/:id',
    expect: inCustomer('admin'),
    call: (_f, scope) => ({ url: `/api/customers/${scope.customerId}`, payload: { name: 'Matrix customer' } }),
  },
  {
    method: 'GET',
    url: '/api/customers/:id/account-executive/candidates',
    expect: inCustomer('accountExecutive', 'admin', 'productManager'),
    call: (_f, scope) => ({ url: `/api/customers/${scope.customerId}/account-executive/candidates?filter=a` }),
  },
  {
    method: 'PUT',
    url: '/api/customers/:id/account-executive',
    expect: inCustomer('accountExecutive', 'admin', 'productManager'),
    call: async (f, scope) => ({
      url: `/api/customers/${scope.customerId}/account-executive`,
      payload: { userId: await f.accountExecutiveUserId() },
    }),
  },

  // ---- invitations, the accepting side (server/modules/invitations/accept-routes.ts): the key is the credential
  {
    method: 'GET',
    url: '/api/invitations/:key',
    expect: anyone,
    call: async (f) => ({ url: `/api/invitations/${await f.invitationKey()}` }),
  },
  {
    method: 'POST',
    url: '/api/invitations/:key/new',
    expect: anyone,
    call: async (f) => ({
      url: `/api/invitations/${await f.invitationKey()}/new`,
      payload: { fullName: 'Matrix Invitee', password: 'A-Valid-Password-123' },
    }),
    endsSession: true,
  },
  {
    method: 'POST',
    url: '/api/invitations/:key/existing',
    expect: signedIn,
    // sent to the caller's own address, with a role their account can hold
    call: async (f, scope) => {
      const executive = scope.actor === 'accountExecutive' || scope.actor === 'otherAccountExecutive';
      const key = await f.invitationKey(scope.actorEmail, executive ? 'accountExecutive' : 'technicalContact');
      return { url: `/api/invitations/${key}/existing` };
    },
  },

  // ---- self-service sign-up (server/modules/signup, docs/decisions/067)
  {
    method: 'POST',
    url: '/api/signup',
    expect: visitorsOnly,
    call: (f) => ({
      payload: {
        email: `signup-${f.unique()}@example.com`,
        firstName: 'Matrix',
        lastName: 'Visitor',
        companyName: 'Matrix Trial',
        jobTitle: 'Engineer',
      },
    }),
  },
  {
    method: 'GET',
    url: '/api/signup/:key',
    expect: anyone,
    call: async (f) => ({ url: `/api/signup/${await f.signupKey()}` }),
  },
  {
    method: 'POST',
    url: '/api/signup/:key/confirm',
    expect: anyone,
    call: async (f) => ({
      url: `/api/signup/${await f.signupKey()}/confirm`,
      payload: {
        firstName: 'Matrix',
        lastName: 'Visitor',
        password: 'A-Valid-Password-123',
        confirmPassword: 'A-Valid-Password-123',
        useCase: 'other',
        graphDB: 'other',
      },
    }),
    // the new account is signed in in place of the caller
    endsSession: true,
  },

  // ---- recent actions and notification settings (server/modules/audit, server/modules/notification-settings)
  {
    method: 'GET',
    url: '/api/customers/:id/logs',
    expect: inCustomer('admin', 'accountExecutive', 'supportEngineer', 'businessOwner'),
    call: (_f, scope) => ({ url: `/api/customers/${scope.customerId}/logs?action=downloadArtifact` }),
  },
  {
    method: 'GET',
    url: '/api/customers/:id/logs.csv',
    expect: inCustomer('admin', 'accountExecutive', 'supportEngineer', 'businessOwner'),
    call: (_f, scope) => ({ url: `/api/customers/${scope.customerId}/logs.csv` }),
  },
  { method: 'GET', url: '/api/members/mine', expect: signedIn },
  {
    // another member's flags: the roles that see the team (the member themself: settings.test.ts)
    method: 'PATCH',
    url: '/api/members/:id/settings',
    expect: inCustomer('admin', 'accountExecutive', 'supportEngineer', 'businessOwner'),
    call: (f, scope) => ({
      url: `/api/members/${f.membershipIds[scope.customerId] ?? 1}/settings`,
      payload: { notifyNewVersion: false },
    }),
  },
  // ---- the notification centre (server/modules/notifications): each signed-in user's own
  {
    method: 'GET',
    url: '/api/notifications',
    expect: signedIn,
    call: () => ({ url: '/api/notifications?pageOffset=0&pageLength=10' }),
  },
  {
    // another user's ids are ignored, never refused (ownership: notifications.test.ts)
    method: 'POST',
    url: '/api/notifications/read',
    expect: signedIn,
    call: () => ({ payload: { ids: [1, 2] } }),
  },
  // ---- cloud instances (server/modules/instances, docs/instances.md)
  {
    method: 'GET',
    url: '/api/customers/:id/instances',
    expect: inCustomer(...ROLES),
    call: (_f, scope) => ({ url: `/api/customers/${scope.customerId}/instances` }),
  },
  {
    method: 'POST',
    url: '/api/instances/:id/archive',
    expect: inCustomer('admin', 'supportEngineer'),
    call: async (f, scope) => ({ url: `/api/instances/${await f.instance(scope.customerId, 'provisioned')}/archive` }),
  },
  {
    method: 'POST',
    url: '/api/instances/:id/restore',
    expect: inCustomer('admin', 'supportEngineer'),
    call: async (f, scope) => ({ url: `/api/instances/${await f.instance(scope.customerId, 'archived')}/restore` }),
  },
  // machine only: the orchestrator's signature opens it (instances.test.ts), a session never does
  {
    method: 'POST',
    url: '/api/instances/callback',
    expect: everyone(401),
    call: () => ({ payload: { id: 'evt-matrix', instanceId: 1, status: 'provisioning' } }),
  },
  // ---- members and invitations (server/modules/members, server/modules/invitations)
  {
    method: 'GET',
    url: '/api/customers/:id/members',
    expect: inCustomer('accountExecutive', 'admin', 'businessOwner', 'supportEngineer'),
    call: (_f, scope) => ({ url: `/api/customers/${scope.customerId}/members` }),
  },
  {
    method: 'PATCH',
    url: '/api/members/:id/status',
    expect: inCustomer('accountExecutive', 'admin', 'businessOwner', 'supportEngineer'),
    call: async (f, scope) => ({
      url: `/api/members/${await f.member(scope.customerId)}/status`,
      payload: { status: 'disabled' },
    }),
  },
  {
    method: 'GET',
    url: '/api/invitations',
    expect: inCustomer('accountExecutive', 'admin', 'businessOwner', 'supportEngineer'),
    call: (_f, scope) => ({ url: `/api/invitations?customerId=${scope.customerId}` }),
    // without one, every signed-in user: what each one sees is tested in invitations.test.ts
    withoutCustomer: { expect: signedIn, call: () => ({ url: '/api/invitations' }) },
  },
  {
    method: 'POST',
    url: '/api/invitations',
    expect: inCustomer('accountExecutive', 'admin', 'businessOwner', 'supportEngineer'),
    call: (f, scope) => ({
      payload: {
        invitedEmail: `invited-${f.unique()}@example.com`,
        invitedFullName: 'Invited Person',
        targetCustomer: scope.customerId,
        targetRole: 'technicalContact',
      },
    }),
  },
  {
    method: 'GET',
    url: '/api/invitations/:id/link',
    expect: inCustomer('admin'),
    call: async (f, scope) => ({ url: `/api/invitations/${await f.invitation(scope.customerId)}/link` }),
  },
  {
    method: 'DELETE',
    url: '/api/invitations/:id',
    expect: inCustomer('accountExecutive', 'admin', 'businessOwner', 'supportEngineer'),
    call: async (f, scope) => ({ url: `/api/invitations/${await f.invitation(scope.customerId)}` }),
  },
  {
    method: 'POST',
    url: '/api/invitations/:id/resend',
    expect: inCustomer('accountExecutive', 'admin', 'businessOwner', 'supportEngineer'),
    call: async (f, scope) => ({ url: `/api/invitations/${await f.invitation(scope.customerId)}/resend` }),
  },

  // ---- customizations (server/modules/customizations)
  {
    method: 'POST',
    url: '/api/customizations/validate',
    expect: inCustomer('accountExecutive', 'admin', 'productManager'),
    call: async (f, scope) => ({
      payload: {
        customerId: scope.customerId,
        productKey: await f.customizableProduct(scope.customerId),
        versionType: 'stable',
        customConfig: LKE_CONFIG,
      },
    }),
    // Without a customer, the caller's scope gives it (decision 094): admins and product managers
    // need none; an account executive works on their one customer, which holds the product here, the
    // account executive of a third customer on that one, which does not (404 as for any customer
    // without it); roles that never manage licences are refused, as with a customer named.
    withoutCustomer: {
      expect: {
        ...only('admin', 'productManager', 'accountExecutive'),
        otherAccountExecutive: 404,
      },
      call: async (f, scope) => {
        await f.setUpMembershipsOnly(scope.actor);
        return {
          payload: {
            productKey: await f.customizableProduct(f.ownCustomerId),
            versionType: 'stable',
            customConfig: LKE_CONFIG,
          },
        };
      },
    },
  },
  {
    method: 'POST',
    url: '/api/customizations',
    expect: inCustomer('accountExecutive', 'admin', 'productManager'),
    call: async (f, scope) => ({
      payload: {
        customerId: scope.customerId,
        productKey: await f.customizableProduct(scope.customerId),
        versionType: 'stable',
        customConfig: LKE_CONFIG,
      },
    }),
  },
  {
    method: 'GET',
    url: '/api/customizations/:id',
    expect: inCustomer('accountExecutive', 'admin', 'productManager', 'supportEngineer'),
    call: async (f, scope) => ({ url: `/api/customizations/${await f.customization(scope.customerId)}` }),
  },
  {
    method: 'PATCH',
    url: '/api/customizations/:id',
    expect: inCustomer('accountExecutive', 'admin', 'productManager'),
    call: async (f, scope) => ({
      url: `/api/customizations/${await f.customization(scope.customerId)}`,
      payload: { versionType: 'beta', customConfig: LKE_CONFIG },
    }),
  },
  {
    method: 'GET',
    url: '/api/customers/:id/customizations',
    expect: inCustomer('accountExecutive', 'admin', 'productManager', 'supportEngineer'),
    call: (_f, scope) => ({ url: `/api/customers/${scope.customerId}/customizations` }),
  },

  // ---- licences (server/modules/licences)
  {
    method: 'GET',
    url: '/api/customers/:id/licenses',
    expect: inCustomer(
      'admin',
      'accountExecutive',
      'productManager',
      'supportEngineer',
      'businessOwner',
      'technicalContact',
    ),
    call: (_f, scope) => ({ url: `/api/customers/${scope.customerId}/licenses` }),
  },
  {
    method: 'POST',
    url: '/api/customers/:id/licenses',
    expect: inCustomer('accountExecutive', 'admin', 'productManager'),
    call: async (f, scope) => ({
      url: `/api/customers/${scope.customerId}/licenses`,
      payload: {
        productKey: await f.product(),
        startDate: utcToday(),
        endDate: addDays(utcToday(), 365),
        data: { fixedLicenses: 1 },
      },
    }),
  },
  {
    method: 'GET',
    url: '/api/customers/:id/licensable-products',
    expect: inCustomer('accountExecutive', 'admin', 'productManager'),
    call: (_f, scope) => ({ url: `/api/customers/${scope.customerId}/licensable-products` }),
  },
  // every signed-in user; which licences each one sees is tested in licences/ending.test.ts
  { method: 'GET', url: '/api/licenses/ending', expect: signedIn },
  {
    method: 'GET',
    url: '/api/licenses/:id',
    expect: inCustomer(
      'admin',
      'accountExecutive',
      'productManager',
      'supportEngineer',
      'businessOwner',
      'technicalContact',
    ),
    call: async (f, scope) => ({ url: `/api/licenses/${await f.licence(scope.customerId)}` }),
  },
  {
    method: 'PATCH',
    url: '/api/licenses/:id',
    expect: inCustomer('accountExecutive', 'admin', 'productManager'),
    call: async (f, scope) => ({
      url: `/api/licenses/${await f.licence(scope.customerId)}`,
      payload: { accessLevel: 'beta', endDate: addDays(utcToday(), 400), data: { fixedLicenses: 2 } },
    }),
  },
  {
    method: 'POST',
    url: '/api/licenses/:id/secret',
    expect: inCustomer('accountExecutive', 'admin', 'productManager'),
    call: async (f, scope) => ({ url: `/api/licenses/${await f.licence(scope.customerId)}/secret` }),
  },

  // ---- download analytics (server/modules/analytics)
  { method: 'GET', url: '/api/analytics/downloads', expect: only('productManager', 'admin') },

  // ---- background work (server/modules/background-work): the job engine's work, admins only
  { method: 'GET', url: '/api/jobs', expect: only('admin') },
  {
    method: 'GET',
    url: '/api/jobs/failed',
    expect: only('admin'),
    call: () => ({ url: '/api/jobs/failed?pageLength=5&name=downloads.record' }),
  },
  {
    method: 'POST',
    url: '/api/jobs/:name/:id/retry',
    expect: only('admin'),
    call: async (f) => {
      const job = await f.failedJob();
      return { url: `/api/jobs/${job.name}/${job.id}/retry` };
    },
  },
  {
    method: 'POST',
    url: '/api/jobs/:name/:id/discard',
    expect: only('admin'),
    call: async (f) => {
      const job = await f.failedJob();
      return { url: `/api/jobs/${job.name}/${job.id}/discard` };
    },
  },

  // ---- licence files (server/modules/licence-files)
  { method: 'GET', url: '/api/licence-files/keys', expect: anyone },
  {
    method: 'GET',
    url: '/api/download/license/:productKey',
    expect: inCustomer('accountExecutive', 'admin', 'businessOwner', 'supportEngineer', 'technicalContact'),
    call: (f, scope) => ({
      url: `/api/download/license/${encodeURIComponent(f.licensedProductKey)}?customerId=${scope.customerId}`,
    }),
  },

  // ---- artifacts and product API tokens (server/modules/artifacts)
  {
    method: 'GET',
    url: '/api/products/:key/tokens',
    expect: only('productManager', 'admin'),
    call: (f) => ({ url: `/api/products/${f.tokenProductKey}/tokens` }),
  },
  {
    method: 'POST',
    url: '/api/products/:key/tokens',
    expect: only('productManager', 'admin'),
    call: (f) => ({ url: `/api/products/${f.tokenProductKey}/tokens`, payload: { name: 'Matrix pipeline' } }),
  },
  {
    method: 'DELETE',
    url: '/api/products/:key/tokens/:id',
    expect: only('productManager', 'admin'),
    call: async (f) => ({ url: `/api/products/${f.tokenProductKey}/tokens/${await f.productTokenId()}` }),
  },
  {
    method: 'PUT',
    url: '/api/versions/:id/artifacts/:platform',
    expect: only('productManager', 'admin'),
    productToken: 'allow',
    call: async (f) => ({
      url: `/api/versions/${await f.unpublishedVersion()}/artifacts/linux`,
      payload: 'matrix artifact bytes',
      headers: { 'content-type': 'application/octet-stream' },
    }),
  },
  {
    method: 'DELETE',
    url: '/api/versions/:id/artifacts/:platform',
    expect: only('productManager', 'admin'),
    call: async (f) => ({ url: `/api/versions/${await f.unpublishedVersion(['linux'])}/artifacts/linux` }),
  },

  // ---- the catalogue (server/modules/catalogue)
  { method: 'GET', url: '/api/products', expect: only('productManager', 'admin') },
  {
    method: 'POST',
    url: '/api/products',
    expect: only('admin'),
    call: (f) => ({ payload: { key: `p-${f.unique()}`, name: 'Matrix Product', description: 'A product' } }),
  },
  {
    method: 'GET',
    url: '/api/products/:key',
    expect: only('productManager', 'admin'),
    call: async (f) => ({ url: `/api/products/${await f.product()}` }),
  },
  {
    method: 'PATCH',
    url: '/api/products/:key',
    expect: only('admin'),
    call: async (f) => ({ url: `/api/products/${await f.product()}`, payload: { name: 'Renamed Product' } }),
  },
  {
    method: 'GET',
    url: '/api/products/:key/versions',
    expect: inCustomer(
      'admin',
      'accountExecutive',
      'productManager',
      'supportEngineer',
      'businessOwner',
      'technicalContact',
    ),
    call: (f, scope) => ({
      url: `/api/products/${encodeURIComponent(f.licensedProductKey)}/versions?customerId=${scope.customerId}`,
    }),
    // without one, every version of the product: for those who see the products
    withoutCustomer: {
      expect: only('productManager', 'admin'),
      call: (f) => ({ url: `/api/products/${encodeURIComponent(f.licensedProductKey)}/versions` }),
    },
  },
  {
    method: 'POST',
    url: '/api/products/:key/versions',
    expect: only('productManager', 'admin'),
    call: async (f) => ({
      url: `/api/products/${await f.product()}/versions`,
      payload: { title: 'First', semVer: '1.0.0', description: 'The first version' },
    }),
  },
  {
    method: 'GET',
    url: '/api/versions/:id',
    expect: only('productManager', 'admin'),
    call: async (f) => ({ url: `/api/versions/${await f.unpublishedVersion()}` }),
  },
  {
    method: 'PATCH',
    url: '/api/versions/:id',
    expect: only('productManager', 'admin'),
    call: async (f) => ({ url: `/api/versions/${await f.unpublishedVersion()}`, payload: { description: 'Changed' } }),
  },

  // ---- webhooks (server/modules/webhooks): admins only
  { method: 'GET', url: '/api/webhooks', expect: only('admin') },
  {
    method: 'POST',
    url: '/api/webhooks',
    expect: only('admin'),
    call: () => ({ payload: { url: 'https://hooks.example.com/matrix', events: ['customer.created'] } }),
  },
  {
    method: 'PATCH',
    url: '/api/webhooks/:id',
    expect: only('admin'),
    call: async (f) => ({ url: `/api/webhooks/${await f.webhook()}`, payload: { enabled: false } }),
  },
  {
    method: 'DELETE',
    url: '/api/webhooks/:id',
    expect: only('admin'),
    call: async (f) => ({ url: `/api/webhooks/${await f.webhook()}` }),
  },
  {
    method: 'GET',
    url: '/api/webhooks/:id/deliveries',
    expect: only('admin'),
    call: async (f) => ({ url: `/api/webhooks/${(await f.webhookDelivery()).webhookId}/deliveries` }),
  },
  {
    method: 'POST',
    url: '/api/webhooks/:id/deliveries/:deliveryId/resend',
    expect: only('admin'),
    call: async (f) => {
      const { webhookId, deliveryId } = await f.webhookDelivery();
      return { url: `/api/webhooks/${webhookId}/deliveries/${deliveryId}/resend` };
    },
  },

  // ---- self-service billing (server/modules/billing, docs/billing.md)
  {
    method: 'POST',
    url: '/api/signup/payment',
    expect: inCustomer('admin', 'supportEngineer', 'businessOwner'),
    call: async (f, scope) => {
      await f.selfService(scope.customerId);
      return { payload: { customerId: scope.customerId } };
    },
  },
  {
    method: 'GET',
    url: '/api/stripe/verify-session/:sessionId',
    expect: inCustomer('admin', 'supportEngineer', 'businessOwner'),
    call: async (f, scope) => ({ url: `/api/stripe/verify-session/${await f.testCheckout(scope.customerId)}` }),
  },
  {
    method: 'POST',
    url: '/api/stripe/update-payment-method-session',
    expect: inCustomer('admin', 'supportEngineer', 'businessOwner'),
    call: async (f, scope) => {
      await f.selfService(scope.customerId, true);
      return { payload: { customerId: scope.customerId } };
    },
  },
  {
    method: 'POST',
    url: '/api/stripe/billing-portal-session',
    expect: inCustomer('admin', 'accountExecutive', 'supportEngineer', 'businessOwner'),
    call: async (f, scope) => {
      await f.selfService(scope.customerId, true);
      return { payload: { customerId: scope.customerId } };
    },
  },
  {
    method: 'GET',
    url: '/api/customers/:id/subscription',
    expect: inCustomer('admin', 'accountExecutive', 'supportEngineer', 'businessOwner'),
    call: (_f, scope) => ({ url: `/api/customers/${scope.customerId}/subscription` }),
  },
  // public: the signature decides (server/modules/billing/webhooks.test.ts refuses forged ones)
  { method: 'POST', url: '/api/stripe/webhooks', expect: anyone, call: async (f) => f.stripeEvent() },
  // the built-in test checkout's pages: a checkout, for those who pay
  {
    method: 'GET',
    url: '/api/test-checkout/:sessionId',
    expect: inCustomer('admin', 'supportEngineer', 'businessOwner'),
    call: async (f, scope) => ({ url: `/api/test-checkout/${await f.testCheckout(scope.customerId)}` }),
  },
  {
    method: 'POST',
    url: '/api/test-checkout/:sessionId',
    expect: inCustomer('admin', 'supportEngineer', 'businessOwner'),
    call: async (f, scope) => ({
      url: `/api/test-checkout/${await f.testCheckout(scope.customerId)}`,
      payload: { action: 'decline' },
    }),
  },

  // ---- artifact downloads (server/modules/downloads)
  {
    method: 'GET',
    url: '/api/download/:platform',
    expect: inCustomer('accountExecutive', 'admin', 'businessOwner', 'supportEngineer', 'technicalContact'),
    call: (f, scope) => ({
      url: `/api/download/linux?customerId=${scope.customerId}&versionId=${f.downloadableVersionId}`,
    }),
  },
  // public: the licence's secret decides (server/modules/downloads/secret-url.test.ts refuses wrong ones)
  {
    method: 'GET',
    url: '/api/get/:platform/:productKey/:semVer',
    expect: anyone,
    call: (f) => ({
      url: `/api/get/linux/${f.licensedProductKey}/latest/?secret=${encodeURIComponent(f.ownDownloadSecret)}`,
    }),
  },
  // public: the same secret (server/modules/downloads/feed.test.ts refuses wrong ones)
  {
    method: 'GET',
    url: '/api/get/sums/:productKey/:semVer',
    expect: anyone,
    call: (f) => ({
      url: `/api/get/sums/${f.licensedProductKey}/latest/?secret=${encodeURIComponent(f.ownDownloadSecret)}`,
    }),
  },
  {
    method: 'GET',
    url: '/api/feeds/:productKey.atom',
    expect: anyone,
    call: (f) => ({
      url: `/api/feeds/${f.licensedProductKey}.atom?secret=${encodeURIComponent(f.ownDownloadSecret)}`,
    }),
  },

  // ---- the OpenID Connect provider under /oidc (server/modules/oidc, docs/oidc.md)
  // public: the protocol decides (client authentication, PKCE, the logout form's xsrf value)
  { method: 'GET', url: '/oidc/*', expect: anyone, call: () => ({ url: '/oidc/.well-known/openid-configuration' }) },
  {
    method: 'POST',
    url: '/oidc/*',
    expect: anyone,
    // a public client's page revoking a token; a bearer token of another kind is no client
    // credential, and the provider refuses the malformed client authentication
    call: () => ({
      url: '/oidc/token/revocation',
      payload: 'client_id=console&token=not-a-token',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://console.test' },
    }),
    productToken: 400,
    metricsToken: 400,
  },
  {
    method: 'OPTIONS',
    url: '/oidc/*',
    expect: anyone,
    call: () => ({
      url: '/oidc/token',
      headers: { origin: 'http://academy.test', 'access-control-request-method': 'POST' },
    }),
  },
  // public: the interaction cookie decides; a visitor is sent to the login page, a user signs in
  {
    method: 'GET',
    url: '/oidc/interaction/:uid',
    expect: anyone,
    success: 303,
    call: async (f, scope) => {
      const interaction = await f.oidcInteraction(scope.actor, 'login');
      return { url: `/oidc/interaction/${interaction.uid}`, headers: { cookie: interaction.cookie } };
    },
  },
  // the consent page's calls: the signed-in user whose sign-in the interaction is
  ...(['GET /details', 'POST /confirm', 'POST /abort'] as const).map((route) => {
    const [method, suffix] = route.split(' ') as ['GET' | 'POST', string];
    return {
      method,
      url: `/oidc/interaction/:uid${suffix}`,
      expect: signedIn,
      call: async (f: Fixture, scope: CallScope) => {
        const interaction = await f.oidcInteraction(scope.actor, 'consent');
        return { url: `/oidc/interaction/${interaction.uid}${suffix}`, headers: { cookie: interaction.cookie } };
      },
    } satisfies MatrixRow;
  }),
];
