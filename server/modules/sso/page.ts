import crypto from 'node:crypto';
import { ERROR_CODES } from '../../../common/api/errors';
import type { Locale } from '../../../common/roles';
import { serverT } from '../../i18n';
import type { HandOff } from './service';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE =
  'body{font-family:system-ui,sans-serif;margin:0;padding:2rem 1rem;color:#1a1b1e}' +
  'main{max-width:32rem;margin:0 auto}h1{font-size:1.25rem}' +
  'button{font:inherit;padding:.6rem 1rem;border-radius:.25rem;border:0;background:#1864ab;color:#fff}' +
  'button:focus-visible{outline:3px solid #1864ab;outline-offset:2px}';

// the sign-in pages' look (client/public/public.css): their bar, brand colour, card and link
const PORTAL_STYLE =
  'body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;margin:0;color:#000;line-height:1.55}' +
  'header{height:60px;display:flex;align-items:center;padding:0 16px;border-bottom:1px solid #dee2e6}' +
  '.brand{font-size:18px;font-weight:700;color:#3d4fd1;text-decoration:none}' +
  'main{max-width:28rem;margin:32px auto;padding:0 16px}' +
  '.card{border:1px solid #ced4da;border-radius:8px;padding:24px}' +
  'h1{font-size:1.375rem;margin:0 0 12px}p{margin:0 0 16px}' +
  '.home{display:inline-block;padding:8px 16px;border-radius:4px;background:#3d4fd1;color:#fff;text-decoration:none;font-weight:600}' +
  'a:focus-visible{outline:2px solid #3d4fd1;outline-offset:2px}';

/**
 * The page the hand-off answers when no support desk is set up (no SUPPORT_JWT_SECRET): said in
 * the portal's look and the reader's language, with the way home, rather than a JSON error a browser
 * would show raw. Its CSP allows its one style by nonce and nothing else.
 */
export function deskUnavailablePage(locale: Locale): { html: string; csp: string } {
  const t = serverT(locale);
  const nonce = crypto.randomBytes(16).toString('base64');
  const home = `/${locale}/`;
  const html = `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(t('supportDesk.unavailableTitle'))} · ${escapeHtml(t('supportDesk.portal'))}</title>
<style nonce="${nonce}">${PORTAL_STYLE}</style>
</head>
<body>
<header><a class="brand" href="${home}">${escapeHtml(t('supportDesk.portal'))}</a></header>
<main>
<div class="card" data-code="${ERROR_CODES.supportDeskNotConfigured}">
<h1>${escapeHtml(t('supportDesk.unavailableHeading'))}</h1>
<p>${escapeHtml(t('supportDesk.unavailableText'))}</p>
<a class="home" href="${home}" data-testid="support-unavailable-home">${escapeHtml(t('supportDesk.home'))}</a>
</div>
</main>
</body>
</html>
`;
  const csp = [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    "form-action 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return { html, csp };
}

/**
 * The page that hands the token to the support desk: a form posted to the desk's JWT endpoint by its
 * one script (so the token is never in an address, a history entry or a Referer), with a button for a
 * browser without scripts, in the user's language. Its CSP allows that script and style by nonce and
 * form posts to the desk's origin only.
 */
export function handOffPage(handOff: Extract<HandOff, { kind: 'post' }>): { html: string; csp: string } {
  const t = serverT(handOff.locale);
  const nonce = crypto.randomBytes(16).toString('base64');
  const html = `<!doctype html>
<html lang="${handOff.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(t('supportDesk.title'))}</title>
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
<main>
<h1>${escapeHtml(t('supportDesk.heading'))}</h1>
<form id="support-desk-handoff" method="post" action="${escapeHtml(handOff.action)}">
<input type="hidden" name="jwt" value="${escapeHtml(handOff.jwt)}">
<input type="hidden" name="return_to" value="${escapeHtml(handOff.returnTo)}">
<noscript>
<p>${escapeHtml(t('supportDesk.noScript'))}</p>
<button type="submit">${escapeHtml(t('supportDesk.continue'))}</button>
</noscript>
</form>
</main>
<script nonce="${nonce}">document.getElementById('support-desk-handoff').submit();</script>
</body>
</html>
`;
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    `form-action ${new URL(handOff.action).origin}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return { html, csp };
}
