import crypto from 'node:crypto';
import { serverT } from '../../i18n';
import type { HandOff } from './service';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE =
  'body{font-family:system-ui,sans-serif;margin:0;padding:2rem 1rem;color:#1a1b1e}' +
  'main{max-width:32rem;margin:0 auto}h1{font-size:1.25rem}' +
  'button{font:inherit;padding:.6rem 1rem;border-radius:.25rem;border:0;background:#1864ab;color:#fff}' +
  'button:focus-visible{outline:3px solid #1864ab;outline-offset:2px}';

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
