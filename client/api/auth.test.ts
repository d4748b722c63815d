// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import type { Profile } from '../../common/api/auth';
import { PROFILE_ELEMENT_ID, SIGNED_OUT_ATTRIBUTE } from '../../common/constants';
import { profileCan } from '../test/abilities';
import { profileSentWithPage } from './auth';

const PROFILE: Profile = {
  id: 7,
  email: 'ada@example.com',
  fullName: 'Ada </script> Lovelace',
  preferredLocale: 'fr',
  type: 'admin',
  yourRole: 'admin',
  accounts: [],
  accountsTotal: 0,
  can: profileCan('admin', 'admin'),
};

function sendProfile(text: string) {
  const element = document.createElement('script');
  element.type = 'application/json';
  element.id = PROFILE_ELEMENT_ID;
  element.textContent = text;
  document.head.append(element);
}

describe('the profile the server sent with the page', () => {
  afterEach(() => {
    document.getElementById(PROFILE_ELEMENT_ID)?.remove();
    document.documentElement.removeAttribute(SIGNED_OUT_ATTRIBUTE);
  });

  it('is read from its element, as the server escapes it', () => {
    sendProfile(JSON.stringify(PROFILE).replace(/</g, '\\u003c'));
    expect(profileSentWithPage()).toEqual(PROFILE);
  });

  it('is null on a page the server marked signed out', () => {
    document.documentElement.setAttribute(SIGNED_OUT_ATTRIBUTE, '');
    expect(profileSentWithPage()).toBeNull();
  });

  it('is unknown (asked for as usual) when the page says nothing, or something that is not a profile', () => {
    expect(profileSentWithPage()).toBeUndefined();
    sendProfile('{not json');
    expect(profileSentWithPage()).toBeUndefined();
    document.getElementById(PROFILE_ELEMENT_ID)?.remove();
    sendProfile(JSON.stringify({ id: 'seven' }));
    expect(profileSentWithPage()).toBeUndefined();
  });
});
