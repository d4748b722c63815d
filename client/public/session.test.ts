// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../../common/constants';
import { storage } from '../app/storage';
import { adminProfile } from '../test/render';
import { interactionOf, loginSuccessTarget, signedInTarget } from './session';

/** Spec 4 "Login success", in its order: the OIDC return target, the stored SSO redirect, the stored path. */
describe('where a sign-in goes', () => {
  afterEach(() => storage.remove(STORAGE_KEYS.redirect));

  const uid = 'AbCdEfGhIjKlMnOpQrStU';

  it('goes back to the OpenID Connect interaction first, before the SSO target and the stored path', () => {
    storage.set(STORAGE_KEYS.redirect, '/customers');
    expect(loginSuccessTarget(adminProfile, `?interaction=${uid}`, 'https://support.example.com/hc')).toBe(
      `/oidc/interaction/${uid}`,
    );
    expect(loginSuccessTarget(adminProfile, '', 'https://support.example.com/hc')).toBe(
      `/api/jwt/redirect?to=${encodeURIComponent('https://support.example.com/hc')}`,
    );
    expect(loginSuccessTarget(adminProfile, '', null)).toBe('/en/customers');
  });

  it('sends a visitor already signed in back to the interaction too', () => {
    expect(signedInTarget(adminProfile, `?interaction=${uid}&redirect=/customers`)).toBe(`/oidc/interaction/${uid}`);
  });

  it('keeps only a well-formed interaction', () => {
    expect(interactionOf(`?interaction=${uid}`)).toBe(uid);
    for (const forged of ['', 'short', '../../api/users', `${uid}/confirm`, 'a'.repeat(65), 'x%00y']) {
      expect(interactionOf(`?interaction=${encodeURIComponent(forged)}`)).toBeNull();
    }
    expect(loginSuccessTarget(adminProfile, '?interaction=..%2Fapi', null)).toBe('/en');
  });
});
