import { Alert, Anchor, Button, Group, Paper, Stack, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { LoginBody } from '../../../common/api/auth';
import { CAPTCHA_REQUIRED_STATUS, STORAGE_KEYS } from '../../../common/constants';
import { login } from '../../api/auth';
import { ApiError } from '../../api/client';
import { useLocalize } from '../../app/locale';
import { setProfile, useConfig } from '../../app/session';
import { storage } from '../../app/storage';
import { Captcha } from '../../components/captcha/Captcha';
import { CookieNotice } from '../../components/CookieNotice';
import { apiErrorText, namesField } from '../../components/forms';
import { useSchemaForm } from '../../components/useSchemaForm';
import { usePageTitle } from '../../app/title';

interface Values extends Record<string, unknown> {
  email: string;
  password: string;
}

/** What another page may hand the login page: the address just used (after a password reset). */
export interface LoginLocationState {
  email?: string;
}

/** Where a sign-in for the support site goes once the session exists (spec 4, SSO return target). */
export function ssoRedirectUrl(target: string): string {
  return `/api/jwt/redirect?to=${encodeURIComponent(target)}`;
}

export function LoginPage() {
  const { t } = useTranslation();
  const localize = useLocalize();
  usePageTitle(t('login.pageTitle'));
  const queryClient = useQueryClient();
  const config = useConfig().data;
  const givenEmail = (useLocation().state as LoginLocationState | null)?.email ?? '';
  const [ssoRedirect, setSsoRedirect] = useState(() => storage.get(STORAGE_KEYS.ssoRedirect));
  const { form, ref, onSubmit, showFieldErrors } = useSchemaForm<Values>({
    initialValues: { email: givenEmail, password: '' },
    schema: LoginBody,
  });
  const [captchaShown, setCaptchaShown] = useState(false);
  const [captcha, setCaptcha] = useState<string | null>(null);
  const [captchaKey, setCaptchaKey] = useState(0);
  const [feedback, setFeedback] = useState<string | null>(null);

  function onCaptcha(response: string | null) {
    setCaptcha(response);
    if (response) setFeedback(null);
  }

  function toggleSso() {
    if (ssoRedirect) {
      storage.remove(STORAGE_KEYS.ssoRedirect);
      setSsoRedirect(null);
    } else {
      const target = config?.supportUrl || '/';
      storage.set(STORAGE_KEYS.ssoRedirect, target);
      setSsoRedirect(target);
    }
  }

  const signIn = useMutation({
    mutationFn: (body: LoginBody) => login(LoginBody.parse(body)),
    onSuccess: (profile) => {
      if (ssoRedirect) {
        window.location.assign(ssoRedirectUrl(ssoRedirect));
        return;
      }
      // The unauthenticated-only guard sends the now signed-in user on (spec 4 "Login success").
      setProfile(queryClient, profile);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === CAPTCHA_REQUIRED_STATUS) {
        setCaptchaShown(true);
        setFeedback(t('login.captchaRequired'));
      } else {
        // The refusal says when the next attempt needs the captcha: it shows now, not after a 420.
        if (namesField(error, 'recaptchaResponse')) setCaptchaShown(true);
        setFeedback(t('login.error', { error: apiErrorText(error, t) }));
        showFieldErrors(error);
      }
      // Each captcha answer is accepted once; a new attempt needs a new one.
      setCaptcha(null);
      setCaptchaKey((key) => key + 1);
    },
  });

  function send(values: Values) {
    if (captchaShown && !captcha) {
      setFeedback(t('login.captchaRequired'));
      return;
    }
    setFeedback(null);
    signIn.mutate({ ...values, recaptchaResponse: captcha ?? undefined });
  }

  return (
    <Stack maw={440} mx="auto" mt="xl" gap="lg">
      <Paper withBorder shadow="sm" p="xl" radius="md">
        <Stack gap="md">
          <Title order={1} size="h2">
            {ssoRedirect ? t('login.titleSupport') : t('login.titleDownloadCenter')}
          </Title>
          <Group>
            <Button variant="light" size="compact-sm" onClick={toggleSso} data-testid="login-sso-switch">
              {ssoRedirect ? t('login.switchToDownloadCenter') : t('login.switchToSupport')}
            </Button>
          </Group>
          <form ref={ref} onSubmit={onSubmit(send)} noValidate>
            <Stack gap="sm">
              <TextInput
                label={t('login.email')}
                type="email"
                name="email"
                autoComplete="username"
                autoFocus={!givenEmail}
                {...form.getInputProps('email')}
              />
              <TextInput
                label={t('login.password')}
                type="password"
                name="password"
                autoComplete="current-password"
                autoFocus={Boolean(givenEmail)}
                {...form.getInputProps('password')}
              />
              {captchaShown && <Captcha key={captchaKey} onChange={onCaptcha} />}
              {feedback && (
                <Alert color="red" role="alert" data-testid="login-error">
                  {feedback}
                </Alert>
              )}
              <Button type="submit" loading={signIn.isPending} fullWidth>
                {t('login.submit')}
              </Button>
            </Stack>
          </form>
          <Group justify="space-between">
            <Anchor component={Link} to={localize('/password-lost')} size="sm">
              {t('login.forgotPassword')}
            </Anchor>
            <Anchor component={Link} to={localize('/cookies-information')} size="sm">
              {t('login.cookiesInformation')}
            </Anchor>
          </Group>
          {config?.devMailbox && (
            <Anchor href="/dev/mailbox" size="sm" data-testid="dev-mailbox-link">
              {t('login.devMailbox')}
            </Anchor>
          )}
        </Stack>
      </Paper>
      <CookieNotice />
    </Stack>
  );
}
