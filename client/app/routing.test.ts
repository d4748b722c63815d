import { describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../../common/roles';
import { profileCan, typeOfRole } from '../test/abilities';
import {
  detectLocale,
  isRememberablePath,
  isSafeLocalPath,
  localizePath,
  loginTarget,
  ROUTE_RULES,
  routeAccess,
  splitLocale,
  switchLocale,
  toBarePath,
} from './routing';

/** The profile of a user whose role is `yourRole`, with the abilities the server gives it. */
const as = (yourRole: Role | null) => ({ yourRole, can: profileCan(typeOfRole(yourRole), yourRole) });

describe('locale in the path', () => {
  it('splits the locale segment off', () => {
    expect(splitLocale('/fr/users')).toEqual({ locale: 'fr', path: '/users' });
    expect(splitLocale('/en')).toEqual({ locale: 'en', path: '/' });
    expect(splitLocale('/en/')).toEqual({ locale: 'en', path: '/' });
    expect(splitLocale('/customers')).toEqual({ locale: null, path: '/customers' });
    expect(splitLocale('/english/x')).toEqual({ locale: null, path: '/english/x' });
  });

  it('localizes bare paths', () => {
    expect(localizePath('fr', '/customers')).toBe('/fr/customers');
    expect(localizePath('en', '/')).toBe('/en');
    expect(localizePath('en', 'users')).toBe('/en/users');
  });

  it('switches the locale of the same page, keeping query and hash', () => {
    expect(switchLocale('/en/users', '?q=1', '#top', 'fr')).toBe('/fr/users?q=1#top');
    expect(switchLocale('/fr', '', '', 'en')).toBe('/en');
  });

  it('turns any local target into a bare path', () => {
    expect(toBarePath('/fr/accounts/3?tab=x')).toBe('/accounts/3?tab=x');
    expect(toBarePath('/accounts/3')).toBe('/accounts/3');
    expect(toBarePath('/en?x=1')).toBe('/?x=1');
  });
});

describe('detectLocale', () => {
  it('prefers the stored choice, then the browser, then English', () => {
    expect(detectLocale('fr', ['en-US'])).toBe('fr');
    expect(detectLocale(null, ['de-DE', 'fr-CA', 'en'])).toBe('fr');
    expect(detectLocale('xx', ['EN-gb'])).toBe('en');
    expect(detectLocale(null, ['de', 'es'])).toBe('en');
    expect(detectLocale(null, [])).toBe('en');
  });
});

describe('redirect targets', () => {
  it('accepts only same-site paths', () => {
    expect(isSafeLocalPath('/users')).toBe(true);
    expect(isSafeLocalPath('//evil.example/x')).toBe(false);
    expect(isSafeLocalPath('https://evil.example')).toBe(false);
    expect(isSafeLocalPath('/\\evil.example')).toBe(false);
    expect(isSafeLocalPath(null)).toBe(false);
  });

  it('never remembers invitation, login, logout or not-found paths', () => {
    expect(isRememberablePath('/invitation/abc')).toBe(false);
    expect(isRememberablePath('/fr/invitation/abc')).toBe(false);
    expect(isRememberablePath('/en/login')).toBe(false);
    expect(isRememberablePath('/logout')).toBe(false);
    expect(isRememberablePath('/404')).toBe(false);
    expect(isRememberablePath('/en/users?x=1')).toBe(true);
    expect(isRememberablePath('/invitations-report')).toBe(true);
  });
});

describe('loginTarget (spec 4 "Login success")', () => {
  it('goes to the stored redirect when there is a usable one', () => {
    expect(loginTarget({ type: 'admin', storedRedirect: '/users?x=1', storedCustomer: null })).toBe('/users?x=1');
    expect(loginTarget({ type: 'client', storedRedirect: '/fr/accounts/4', storedCustomer: '9' })).toBe('/accounts/4');
  });

  it('ignores stored logout, login, invitation and foreign targets', () => {
    for (const storedRedirect of ['/logout', '/en/login', '/invitation/k', '//evil.example']) {
      expect(loginTarget({ type: 'admin', storedRedirect, storedCustomer: null })).toBe('/');
    }
  });

  it('sends account executives and clients to their stored customer, else the picker', () => {
    expect(loginTarget({ type: 'client', storedRedirect: null, storedCustomer: '12' })).toBe('/accounts/12');
    expect(loginTarget({ type: 'accountExecutive', storedRedirect: null, storedCustomer: null })).toBe(
      '/select-account',
    );
    expect(loginTarget({ type: 'client', storedRedirect: null, storedCustomer: 'junk' })).toBe('/select-account');
  });

  it('ignores a stored customer the profile shows is not one of the user’s accounts', () => {
    const accounts = { ids: [3, 5], total: 2 };
    expect(loginTarget({ type: 'client', storedRedirect: null, storedCustomer: '5', accounts })).toBe('/accounts/5');
    expect(loginTarget({ type: 'client', storedRedirect: null, storedCustomer: '9', accounts })).toBe(
      '/select-account',
    );
    // beyond the accounts the profile lists, the stored one may still be the user's: the page decides
    const many = { ids: [3, 5], total: 80 };
    expect(loginTarget({ type: 'accountExecutive', storedRedirect: null, storedCustomer: '9', accounts: many })).toBe(
      '/accounts/9',
    );
  });

  it('sends other staff home', () => {
    for (const type of ['admin', 'productManager', 'supportEngineer'] as const) {
      expect(loginTarget({ type, storedRedirect: null, storedCustomer: '3' })).toBe('/');
    }
  });
});

describe('routeAccess (spec 2 route rules)', () => {
  it('asks anonymous visitors to sign in, except on public routes', () => {
    expect(routeAccess(ROUTE_RULES.users, null)).toEqual({ kind: 'login' });
    expect(routeAccess(ROUTE_RULES.settings, null)).toEqual({ kind: 'login' });
    expect(routeAccess({ kind: 'public' }, null)).toEqual({ kind: 'allow' });
  });

  it('shows home to productManager, supportEngineer and admin; others go to the picker', () => {
    for (const role of ['productManager', 'supportEngineer', 'admin'] as const) {
      expect(routeAccess(ROUTE_RULES.home, as(role))).toEqual({ kind: 'allow' });
    }
    for (const role of ['accountExecutive', 'businessOwner', 'technicalContact', 'endUser', null] as const) {
      expect(routeAccess(ROUTE_RULES.home, as(role))).toEqual({ kind: 'redirect', to: '/select-account' });
    }
  });

  it('keeps staff who see every customer away from the picker, without a loop for role-less clients', () => {
    expect(routeAccess(ROUTE_RULES.selectAccount, as('admin'))).toEqual({ kind: 'redirect', to: '/' });
    expect(routeAccess(ROUTE_RULES.selectAccount, as('supportEngineer'))).toEqual({ kind: 'redirect', to: '/' });
    expect(routeAccess(ROUTE_RULES.selectAccount, as('accountExecutive'))).toEqual({ kind: 'allow' });
    expect(routeAccess(ROUTE_RULES.selectAccount, as(null))).toEqual({ kind: 'allow' });
  });

  it('forbids role-gated pages to the other roles', () => {
    const table: [keyof typeof ROUTE_RULES, Role[]][] = [
      ['customers', ['supportEngineer', 'productManager', 'admin']],
      ['products', ['productManager', 'admin']],
      ['users', ['admin']],
    ];
    for (const [route, allowed] of table) {
      for (const role of ROLES) {
        const expected = allowed.includes(role) ? { kind: 'allow' } : { kind: 'forbidden' };
        expect(routeAccess(ROUTE_RULES[route], as(role)), `${route} for ${role}`).toEqual(expected);
      }
    }
  });

  it('lets any signed-in user open settings, about and account pages', () => {
    for (const route of ['settings', 'about', 'account'] as const) {
      expect(routeAccess(ROUTE_RULES[route], as('endUser'))).toEqual({ kind: 'allow' });
    }
  });
});
