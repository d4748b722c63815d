/** Business constants shared by client and server (spec section 9, decisions.md). */
export const SUCCESS_NOTIFICATION_MS = 5000;
export const LOADER_DELAY_MS = 200;
export const DEBOUNCE_MS = 300;
export const TYPEAHEAD_MIN_CHARS = 2;
export const INVITATION_VALIDITY_DAYS = 7;
export const PASSWORD_RESET_VALIDITY_MS = 60 * 60 * 1000;
export const SESSION_IDLE_TIMEOUT_MS = 12 * 60 * 60 * 1000;
export const CAPTCHA_AFTER_FAILED_LOGINS_PER_EMAIL = 3;
export const CAPTCHA_AFTER_FAILED_LOGINS_PER_IP = 20;
export const FAILED_LOGIN_WINDOW_MS = 15 * 60 * 1000;
/** HTTP status meaning "solve a captcha first" (spec section 8). */
export const CAPTCHA_REQUIRED_STATUS = 420;
export const SESSION_COOKIE = 'portal_session';
/**
 * The attribute the server puts on a page's <html> element when the request carried no session
 * cookie (or one whose session has ended): the page then knows the visitor is signed out without
 * asking the API.
 */
export const SIGNED_OUT_ATTRIBUTE = 'data-signed-out';
/** The id of the element in which the server sends the signed-in user's profile with the application's page. */
export const PROFILE_ELEMENT_ID = 'portal-profile';
/** Browser storage keys (spec section 4). */
export const STORAGE_KEYS = { customer: 'customer', redirect: 'redirect', ssoRedirect: 'sso-redirect' } as const;
