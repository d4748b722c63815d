import { STORAGE_KEYS } from '../../../common/constants';
import { storage } from '../../app/storage';

/**
 * The support desk's return target for this sign-in (spec 4, storage key sso-redirect). The portal's
 * hand-off (/api/jwt/redirect) sends a visitor here with `?sso=<target>`: it is stored, so the title
 * says "support" and the sign-in leads back to the desk; otherwise whatever was stored before. The
 * target is only ever handed back to /api/jwt/redirect, which keeps it on the desk's origin.
 */
export function takeSsoTarget(search: string): string | null {
  const given = new URLSearchParams(search).get('sso');
  if (given) storage.set(STORAGE_KEYS.ssoRedirect, given);
  return given || storage.get(STORAGE_KEYS.ssoRedirect);
}
