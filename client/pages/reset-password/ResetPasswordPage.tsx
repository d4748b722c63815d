import { Alert, Anchor, Button, Paper, Stack, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ResetPasswordForm } from '../../../common/api/auth';
import { ERROR_CODES } from '../../../common/api/errors';
import { passwordResetQuery, resetPassword } from '../../api/auth';
import { ApiError } from '../../api/client';
import { useLocalize } from '../../app/locale';
import { DelayedLoader } from '../../components/DelayedLoader';
import { apiErrorText, fieldErrorsOf } from '../../components/forms';
import { notify } from '../../components/notify';
import { useSchemaForm } from '../../components/useSchemaForm';
import { usePageTitle } from '../../app/title';
import type { LoginLocationState } from '../login/LoginPage';

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
  const check = useQuery(passwordResetQuery(token));
  const { form, ref, onSubmit, showFieldErrors } = useSchemaForm<ResetPasswordForm>({
    initialValues: { password: '', confirmation: '' },
    schema: ResetPasswordForm,
    options: { validateInputOnBlur: true },
  });

  const reset = useMutation({
    mutationFn: (password: string) => resetPassword({ passwordResetToken: token, password }),
    onSuccess: ({ email }) => {
      notify({ status: 'success', message: t('resetPassword.success') });
      // The sign-in form opens with the account's address filled in: only the password is left to type.
      const state: LoginLocationState = { email };
      void navigate(localize('/login'), { replace: true, state });
    },
    onError: showFieldErrors,
  });
  const feedback = reset.error
    ? t('resetPassword.error', { error: fieldErrorsOf(reset.error, t).password ?? apiErrorText(reset.error, t) })
    : null;

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
      <form ref={ref} onSubmit={onSubmit((values) => reset.mutate(values.password))} noValidate>
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
            {...form.getInputProps('password')}
          />
          <TextInput
            label={t('resetPassword.confirmation')}
            type="password"
            name="confirm-password"
            required
            withAsterisk={false}
            autoComplete="new-password"
            {...form.getInputProps('confirmation')}
          />
          {feedback && (
            <Alert color="red" role="alert" data-testid="reset-feedback">
              {feedback}
            </Alert>
          )}
          <Button type="submit" loading={reset.isPending} fullWidth>
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
