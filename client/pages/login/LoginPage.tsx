import { Alert, Anchor, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CAPTCHA_REQUIRED_STATUS, STORAGE_KEYS } from '../../../common/constants';
import { login } from '../../api/auth';
import { ApiError } from '../../api/client';
import { useLocalize } from '../../app/locale';
import { setProfile, useConfig } from '../../app/session';
import { storage } from '../../app/storage';
import { Captcha } from '../../components/captcha/Captcha';
import { apiErrorText, emailError } from '../../components/forms';
import { useFocusFirstInvalid } from '../../components/useFocusFirstInvalid';
import { usePageTitle } from '../../app/title';

interface FieldErrors {
  email?: string | null;
  password?: string | null;
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
  const [ssoRedirect, setSsoRedirect] = useState(() => storage.get(STORAGE_KEYS.ssoRedirect));
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [captchaShown, setCaptchaShown] = useState(false);
  const [captcha, setCaptcha] = useState<string | null>(null);
  const [captchaKey, setCaptchaKey] = useState(0);
  const [feedback, setFeedback] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const { ref: form, focusFirstInvalid } = useFocusFirstInvalid();

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

  async function submit(event: FormEvent) {
    event.preventDefault();
    const fieldErrors = { email: emailError(email, t), password: password ? null : t('errors.required') };
    setErrors(fieldErrors);
    if (fieldErrors.email || fieldErrors.password) {
      focusFirstInvalid();
      return;
    }
    if (captchaShown && !captcha) {
      setFeedback(t('login.captchaRequired'));
      return;
    }
    setSubmitting(true);
    setFeedback(null);
    try {
      const profile = await login({ email: email.trim(), password, recaptchaResponse: captcha ?? undefined });
      if (ssoRedirect) {
        window.location.assign(ssoRedirectUrl(ssoRedirect));
        return;
      }
      // The unauthenticated-only guard sends the now signed-in user on (spec 4 "Login success").
      setProfile(queryClient, profile);
    } catch (error) {
      if (error instanceof ApiError && error.status === CAPTCHA_REQUIRED_STATUS) {
        setCaptchaShown(true);
        setFeedback(t('login.captchaRequired'));
      } else {
        setFeedback(t('login.error', { error: apiErrorText(error, t) }));
      }
      // Each captcha answer is accepted once; a new attempt needs a new one.
      setCaptcha(null);
      setCaptchaKey((key) => key + 1);
    } finally {
      setSubmitting(false);
    }
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
          <form ref={form} onSubmit={(event) => void submit(event)} noValidate>
            <Stack gap="sm">
              <TextInput
                label={t('login.email')}
                type="email"
                name="email"
                autoComplete="username"
                autoFocus
                value={email}
                error={errors.email}
                onChange={(e) => setEmail(e.currentTarget.value)}
              />
              <TextInput
                label={t('login.password')}
                type="password"
                name="password"
                autoComplete="current-password"
                value={password}
                error={errors.password}
                onChange={(e) => setPassword(e.currentTarget.value)}
              />
              {captchaShown && <Captcha key={captchaKey} onChange={onCaptcha} />}
              {feedback && (
                <Alert color="red" role="alert" data-testid="login-error">
                  {feedback}
                </Alert>
              )}
              <Button type="submit" loading={submitting} fullWidth>
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
      <Text size="xs" c="dimmed" ta="center" data-testid="cookie-notice">
        {t('login.cookieNotice')}{' '}
        <Anchor component={Link} to={localize('/cookies-information')} size="xs">
          {t('login.cookieNoticeLink')}
        </Anchor>
      </Text>
    </Stack>
  );
}
