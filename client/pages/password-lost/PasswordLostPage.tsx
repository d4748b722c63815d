import { Alert, Anchor, Button, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { requestPasswordReset } from '../../api/auth';
import { useLocalize } from '../../app/locale';
import { Captcha } from '../../components/captcha/Captcha';
import { apiErrorText, emailError, isEmail } from '../../components/forms';
import { usePageTitle } from '../../app/title';

type Feedback = { kind: 'success' | 'error'; text: string } | null;

export function PasswordLostPage() {
  const { t } = useTranslation();
  const localize = useLocalize();
  usePageTitle(t('passwordLost.title'));
  const [email, setEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const [captcha, setCaptcha] = useState<string | null>(null);
  const [captchaKey, setCaptchaKey] = useState(0);
  const [submitting, setSubmitting] = useState(false);
  const [feedback, setFeedback] = useState<Feedback>(null);
  const valid = isEmail(email) && Boolean(captcha);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (!valid || !captcha) return;
    setSubmitting(true);
    setFeedback(null);
    try {
      await requestPasswordReset({ email: email.trim(), recaptchaResponse: captcha });
      setFeedback({ kind: 'success', text: t('passwordLost.success') });
    } catch (error) {
      setFeedback({ kind: 'error', text: t('passwordLost.error', { error: apiErrorText(error, t) }) });
    } finally {
      // The answer was spent either way; another request needs a new one.
      setCaptcha(null);
      setCaptchaKey((key) => key + 1);
      setSubmitting(false);
    }
  }

  return (
    <Paper withBorder shadow="sm" p="xl" radius="md" maw={440} mx="auto" mt="xl">
      <Stack gap="md">
        <Title order={1} size="h2">
          {t('passwordLost.title')}
        </Title>
        <Text size="sm">{t('passwordLost.intro')}</Text>
        <form onSubmit={(event) => void submit(event)} noValidate>
          <Stack gap="sm">
            <TextInput
              label={t('passwordLost.email')}
              type="email"
              name="email"
              autoComplete="email"
              autoFocus
              value={email}
              error={touched ? emailError(email, t) : null}
              onBlur={() => setTouched(true)}
              onChange={(e) => setEmail(e.currentTarget.value)}
            />
            <Captcha key={captchaKey} onChange={setCaptcha} />
            {feedback && (
              <Alert
                color={feedback.kind === 'success' ? 'teal' : 'red'}
                role={feedback.kind === 'success' ? 'status' : 'alert'}
                data-testid="password-lost-feedback"
              >
                {feedback.text}
              </Alert>
            )}
            <Button type="submit" loading={submitting} disabled={!valid || submitting} fullWidth>
              {t('passwordLost.submit')}
            </Button>
          </Stack>
        </form>
        <Anchor component={Link} to={localize('/login')} size="sm">
          {t('passwordLost.backToLogin')}
        </Anchor>
      </Stack>
    </Paper>
  );
}
