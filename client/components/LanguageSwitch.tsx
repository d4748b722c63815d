import { Button } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { useLocation, useNavigate } from 'react-router';
import type { Locale } from '../../common/roles';
import { updateProfile } from '../api/auth';
import { errorText } from '../api/client';
import { switchLocale } from '../app/routing';
import { setProfile, useProfile } from '../app/session';
import { LOCALE_STORAGE_KEY, storage } from '../app/storage';
import { currentLocale } from '../i18n';
import { languageSwitchText } from './language-switch-text';
import { notify } from './notify';

/** Changes the interface language; a signed-in user's choice is saved, since their profile locale wins. */
function useSwitchLanguage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const profile = useProfile().data;
  const [pending, setPending] = useState(false);

  async function switchTo(locale: Locale) {
    storage.set(LOCALE_STORAGE_KEY, locale);
    if (profile && profile.preferredLocale !== locale) {
      setPending(true);
      try {
        setProfile(queryClient, await updateProfile({ preferredLocale: locale }));
      } catch (error) {
        notify({ status: 'error', message: errorText(error, t('errors.generic')) });
        return;
      } finally {
        setPending(false);
      }
    }
    void navigate(switchLocale(location.pathname, location.search, location.hash, locale));
  }

  return { switchTo, pending };
}

export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const { switchTo, pending } = useSwitchLanguage();
  const locale = currentLocale(i18n.language);
  const { other, name, label } = languageSwitchText(t, locale);
  return (
    <Button
      variant="subtle"
      size="compact-sm"
      title={label}
      aria-label={label}
      loading={pending}
      onClick={() => void switchTo(other)}
      data-testid="language-switch"
    >
      <span lang={other}>{name}</span>
    </Button>
  );
}
