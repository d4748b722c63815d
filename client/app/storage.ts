import type { STORAGE_KEYS } from '../../common/constants';

/** The interface language chosen on this browser, used for paths that carry no locale. */
export const LOCALE_STORAGE_KEY = 'locale';

type Key = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS] | typeof LOCALE_STORAGE_KEY;

// Private browsing and locked-down profiles throw on storage access; the portal still works without it.
export const storage = {
  get(key: Key): string | null {
    try {
      return window.localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key: Key, value: string): void {
    try {
      window.localStorage.setItem(key, value);
    } catch {
      /* storage unavailable */
    }
  },
  remove(key: Key): void {
    try {
      window.localStorage.removeItem(key);
    } catch {
      /* storage unavailable */
    }
  },
};
