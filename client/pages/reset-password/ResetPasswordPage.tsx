import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { type CheckPasswordResetResult, type ResetPasswordForm, resetPasswordFormFor } from '../../../common/api/auth';
import { ERROR_CODES } from '../../../common/api/errors';
import { checkPasswordReset, resetPassword } from '../../api/auth';
import { ApiError } from '../../api/client';
import { usePageTitle } from '../../app/title';
import { apiErrorText, fieldErrorsOf } from '../../components/forms';
import { useSchemaForm } from '../../components/use-schema-form';
import { PublicLink, usePublicLocalize, usePublicRouter } from '../../public/router';
import { type Settled, useAction } from '../../public/session';
import { Alert, Button, Card, DelayedLoader, TextField } from '../../public/ui';
import type { LoginLocationState } from '../login/LoginPage';

function isInvalidToken(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.code === ERROR_CODES.invalidToken || error.status === 400 || error.status === 404)
  );
}

export function ResetPasswordPage({ token }: { token: string }) {
  const { t } = useTranslation();
  const localize = usePublicLocalize();
  const { navigate } = usePublicRouter();
  usePageTitle(t('resetPassword.title'));
  const [check, setCheck] = useState<Settled<CheckPasswordResetResult>>({ pending: true });
  // the account's address, which the password may not be made of (read when the form validates)
  const email = useRef<string | null>(null);
  email.current = check.data?.email ?? null;
  useEffect(() => {
    let current = true;
    checkPasswordReset(token).then(
      (data) => current && setCheck({ pending: false, data }),
      (error: unknown) => current && setCheck({ pending: false, error }),
    );
    return () => {
      current = false;
    };
  }, [token]);
  const { form, ref, onSubmit, showFieldErrors } = useSchemaForm<ResetPasswordForm>({
    initialValues: { password: '', confirmation: '' },
    schema: () => resetPasswordFormFor(email.current),
    options: { validateInputOnBlur: true },
  });

  const reset = useAction((password: string) => resetPassword({ passwordResetToken: token, password }), {
    onSuccess: ({ email }) => {
      // The sign-in form opens with the account's address filled in and says the password changed:
      // only the password is left to type.
      const state: LoginLocationState = { email, passwordChanged: true };
      navigate(localize('/login'), { replace: true, state });
    },
    onError: showFieldErrors,
  });
  const feedback =
    reset.error !== undefined
      ? t('resetPassword.error', {
          error: fieldErrorsOf(reset.error, t).password ?? apiErrorText(reset.error, t),
        })
      : null;

  let body: React.ReactNode;
  if (check.pending) {
    body = <DelayedLoader />;
  } else if (check.error !== undefined) {
    body = (
      <div className="p-stack-sm">
        <Alert color="red" role="alert" data-testid="reset-invalid-token">
          {isInvalidToken(check.error) ? t('resetPassword.invalidToken') : apiErrorText(check.error, t)}
        </Alert>
        <PublicLink to={localize('/password-lost')} className="p-anchor">
          {t('resetPassword.requestNewLink')}
        </PublicLink>
      </div>
    );
  } else {
    body = (
      <form ref={ref} onSubmit={onSubmit((values) => reset.run(values.password))} noValidate className="p-stack-sm">
        <TextField
          label={t('resetPassword.password')}
          type="password"
          name="new-password"
          autoComplete="new-password"
          autoFocus
          description={t('resetPassword.rules')}
          required
          {...form.getInputProps('password')}
        />
        <TextField
          label={t('resetPassword.confirmation')}
          type="password"
          name="confirm-password"
          required
          autoComplete="new-password"
          {...form.getInputProps('confirmation')}
        />
        {feedback && (
          <Alert color="red" role="alert" data-testid="reset-feedback">
            {feedback}
          </Alert>
        )}
        <Button type="submit" loading={reset.pending} fullWidth>
          {t('resetPassword.submit')}
        </Button>
      </form>
    );
  }

  return (
    <div className="p-page">
      <Card>
        <h1 className="p-title">{t('resetPassword.title')}</h1>
        {body}
      </Card>
    </div>
  );
}
