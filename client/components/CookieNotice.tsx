import { Anchor, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLocalize } from '../app/locale';

/**
 * Spec 4: the cookie notice at the bottom of the login page. Its link sits inside a sentence, so it is
 * underlined: colour alone would not tell it from the text around it (WCAG 1.4.1, axe
 * link-in-text-block), and the notice is in the default text colour, not the dimmed grey.
 */
export function CookieNotice() {
  const { t } = useTranslation();
  const localize = useLocalize();
  return (
    <Text size="xs" ta="center" data-testid="cookie-notice">
      {t('login.cookieNotice')}{' '}
      <Anchor component={Link} to={localize('/cookies-information')} size="xs" underline="always" fw={600}>
        {t('login.cookieNoticeLink')}
      </Anchor>
    </Text>
  );
}
