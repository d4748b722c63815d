import { Alert, Anchor, Button, Paper, Stack, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ERROR_CODES } from '../../../common/api/errors';
import { checkPassword } from '../../../common/password';
import { checkPasswordReset, resetPassword } from '../../api/auth';
import { ApiError } from '../../api/client';
import { useLocalize } from '../../app/locale';
import { DelayedLoader } from '../../components/DelayedLoader';
import { apiErrorText, fieldErrorsOf } from '../../components/forms';
import { notify } from '../../components/notify';
import { useFocusFirstInvalid } from '../../components/useFocusFirstInvalid';
import { usePageTitle } from '../../app/title';

function isInvalidToken(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.code === ERROR_CODES.invalidToken || error.status === 400 || error.status === 404)
  );
}

export function ResetPasswordPage() {
  const { t } = useTranslation();
  const localize = useLocalize();
  usePageTitle(t('resetPassword.title'));
  const navigate = useNavigate();
  const token = useParams().token ?? '';
  const check = useQuery({
    queryKey: ['password-reset', token],
    queryFn: () => checkPasswordReset(token),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [touched, setTouched] = useState({ password: false, confirmation: false });
  const [submitting, setSubmitting] = useState(false);
  const [feedback, setFeedback] = useState<string | null>(null);
  const { ref: form, focusFirstInvalid } = useFocusFirstInvalid();

  const ruleKey = checkPassword(password);
  const passwordError = ruleKey ? t(ruleKey) : null;
  const confirmationError = confirmation !== password ? t('errors.passwordMismatch') : null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched({ password: true, confirmation: true });
    if (passwordError || confirmationError) {
      focusFirstInvalid();
      return;
    }
    setSubmitting(true);
    setFeedback(null);
    try {
      await resetPassword({ passwordResetToken: token, password });
      notify({ status: 'success', message: t('resetPassword.success') });
      void navigate(localize('/login'), { replace: true });
    } catch (error) {
      const fields = fieldErrorsOf(error, t);
      setFeedback(t('resetPassword.error', { error: fields.password ?? apiErrorText(error, t) }));
      setSubmitting(false);
    }
  }

  let body: React.ReactNode;
  if (check.isPending) {
    body = <DelayedLoader />;
  } else if (check.isError) {
    body = (
      <Stack gap="sm">
        <Alert color="red" role="alert" data-testid="reset-invalid-token">
          {isInvalidToken(check.error) ? t('resetPassword.invalidToken') : apiErrorText(check.error, t)}
        </Alert>
        <Anchor component={Link} to={localize('/password-lost')}>
          {t('resetPassword.requestNewLink')}
        </Anchor>
      </Stack>
    );
  } else {
    body = (
      <form ref={form} onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="sm">
          <TextInput
            label={t('resetPassword.password')}
            type="password"
            name="new-password"
            autoComplete="new-password"
            autoFocus
            description={t('resetPassword.rules')}
            required
            withAsterisk={false}
            value={password}
            error={touched.password ? passwordError : null}
            onBlur={() => setTouched((s) => ({ ...s, password: true }))}
            onChange={(e) => setPassword(e.currentTarget.value)}
          />
          <TextInput
            label={t('resetPassword.confirmation')}
            type="password"
            name="confirm-password"
            required
            withAsterisk={false}
            autoComplete="new-password"
            value={confirmation}
            error={touched.confirmation ? confirmationError : null}
            onBlur={() => setTouched((s) => ({ ...s, confirmation: true }))}
            onChange={(e) => setConfirmation(e.currentTarget.value)}
          />
          {feedback && (
            <Alert color="red" role="alert" data-testid="reset-feedback">
              {feedback}
            </Alert>
          )}
          <Button type="submit" loading={submitting} fullWidth>
            {t('resetPassword.submit')}
          </Button>
        </Stack>
      </form>
    );
  }

  return (
    <Paper withBorder shadow="sm" p="xl" radius="md" maw={440} mx="auto" mt="xl">
      <Stack gap="md">
        <Title order={1} size="h2">
          {t('resetPassword.title')}
        </Title>
        {body}
      </Stack>
    </Paper>
  );
}
