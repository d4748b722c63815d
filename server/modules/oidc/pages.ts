import type { KoaContextWithOIDC } from 'oidc-provider';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '../../../common/roles';
import { serverT } from '../../i18n';

/**
 * The provider's own pages, the portal's and translated (docs/oidc.md): the logout question of an
 * RP-initiated logout, and the error page of a request the provider refuses. Plain HTML without
 * scripts, so the /oidc policy needs none; the portal's JSON handshake gets the xsrf value instead.
 */

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** The page's language: the relying party's ui_locales, else the browser's, else English. */
export function pageLocale(uiLocales: unknown, acceptLanguage: string | undefined): Locale {
  const wanted = [
    ...(typeof uiLocales === 'string' ? uiLocales.split(' ') : []),
    ...(acceptLanguage ?? '').split(',').map((part) => part.split(';')[0].trim()),
  ];
  for (const tag of wanted) {
    const language = tag.slice(0, 2).toLowerCase();
    if ((LOCALES as readonly string[]).includes(language)) return language as Locale;
  }
  return DEFAULT_LOCALE;
}

const STYLE = `
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#212529;background:#f8f9fa;line-height:1.5}
main{box-sizing:border-box;max-width:28rem;margin:2rem auto;padding:1.5rem;background:#fff;border:1px solid #dee2e6;border-radius:.5rem}
h1{font-size:1.5rem;margin:0 0 1rem}
.actions{display:flex;flex-wrap:wrap;gap:.75rem;margin-top:1.5rem}
button,a.button{font:inherit;font-weight:600;padding:.5rem 1rem;border-radius:.25rem;border:1px solid #1864ab;cursor:pointer;text-decoration:none}
button.primary{background:#1864ab;color:#fff}
button.secondary,a.button{background:#fff;color:#1864ab}
:focus-visible{outline:3px solid #1864ab;outline-offset:2px}
@media (max-width:30rem){main{margin:0;border:0;border-radius:0;min-height:100vh}}
`;

function page(locale: Locale, title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}

/** Whether the caller asks for JSON (the portal's logout handshake) rather than a page. */
const wantsJson = (ctx: KoaContextWithOIDC) => ctx.accepts('html', 'json') === 'json';

/**
 * `features.rpInitiatedLogout.logoutSource`: the portal's own logout fetches the xsrf value as JSON
 * and posts it back (spec 4 and 7); a browser sent by a relying party gets the question, translated.
 */
export async function logoutSource(ctx: KoaContextWithOIDC, form: string): Promise<void> {
  if (wantsJson(ctx)) {
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(form)?.[1] ?? null;
    ctx.type = 'json';
    ctx.body = { xsrf };
    return;
  }
  const locale = pageLocale(ctx.oidc.params?.ui_locales, ctx.get('accept-language'));
  const t = serverT(locale);
  const client = ctx.oidc.client?.clientName;
  const question = client ? t('oidc.logoutQuestionClient', { client }) : t('oidc.logoutQuestion');
  ctx.type = 'html';
  ctx.body = page(
    locale,
    t('oidc.logoutTitle'),
    `<h1>${escapeHtml(t('oidc.logoutTitle'))}</h1>
<p>${escapeHtml(question)}</p>
${form}
<div class="actions">
<button class="primary" type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>${escapeHtml(t('oidc.logoutConfirm'))}</button>
<button class="secondary" type="submit" form="op.logoutForm">${escapeHtml(t('oidc.logoutStay'))}</button>
</div>`,
  );
}

/** `features.rpInitiatedLogout.postLogoutSuccessSource`: the portal's own logout page says the rest. */
export async function postLogoutSuccessSource(ctx: KoaContextWithOIDC): Promise<void> {
  const locale = pageLocale(ctx.oidc.params?.ui_locales, ctx.get('accept-language'));
  ctx.status = 303;
  ctx.set('Location', `/${locale}/logout`);
  ctx.body = '';
}

/** `renderError`: a refused request's page; JSON callers get the provider's own JSON before this. */
export async function renderError(ctx: KoaContextWithOIDC, out: { error?: string }): Promise<void> {
  ctx.type = 'html';
  ctx.body = errorPage(
    pageLocale(ctx.oidc?.params?.ui_locales, ctx.get('accept-language')),
    out.error ?? 'server_error',
  );
}

/** The error page, for the provider's refusals and the portal's interaction routes alike. */
export function errorPage(locale: Locale, code: string): string {
  const t = serverT(locale);
  return page(
    locale,
    t('oidc.errorTitle'),
    `<h1>${escapeHtml(t('oidc.errorTitle'))}</h1>
<p>${escapeHtml(t('oidc.errorText'))}</p>
<p>${escapeHtml(t('oidc.errorCode', { code }))}</p>
<div class="actions"><a class="button" href="/${locale}/">${escapeHtml(t('oidc.home'))}</a></div>`,
  );
}
