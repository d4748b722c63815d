import { useTranslation } from '../i18n/use-translation';
import { PublicLink, usePublicLocalize } from '../public/router';

/**
 * Spec 4: the cookie notice at the bottom of the login page. Its link sits inside a sentence, so it is
 * underlined: colour alone would not tell it from the text around it (WCAG 1.4.1, axe
 * link-in-text-block), and the notice is in the default text colour, not the dimmed grey.
 */
export function CookieNotice() {
  const { t } = useTranslation();
  const localize = usePublicLocalize();
  return (
    <p className="p-text-xs" data-testid="cookie-notice">
      {t('login.cookieNotice')}{' '}
      <PublicLink to={localize('/cookies-information')} className="p-anchor p-underline">
        {t('login.cookieNoticeLink')}
      </PublicLink>
    </p>
  );
}
