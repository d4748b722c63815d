import { useEffect } from 'react';
import { useTranslation } from '../i18n/use-translation';

/**
 * Sets the browser tab's title to the page's own, in the page's language. Screen readers announce it
 * on navigation, and a row of portal tabs stays tellable apart.
 */
export function usePageTitle(page: string | null | undefined): void {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = page ? t('app.pageTitle', { page }) : t('app.name');
  }, [page, t]);
}
