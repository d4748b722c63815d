import { useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { RequestPasswordResetBody } from '../../../common/api/auth';
import { requestPasswordReset } from '../../api/auth';
import { usePageTitle } from '../../app/title';
import { Captcha } from '../../components/captcha/Captcha';
import { apiErrorText } from '../../components/forms';
import { useSchemaForm } from '../../components/use-schema-form';
import { PublicLink, usePublicLocalize } from '../../public/router';
import { useAction } from '../../public/session';
import { Alert, Button, Card, TextField } from '../../public/ui';

interface Values extends Record<string, unknown> {
  email: string;
  recaptchaResponse: string;
}

export function PasswordLostPage() {
  const { t } = useTranslation();
  const localize = usePublicLocalize();
  usePageTitle(t('passwordLost.title'));
  const { form, ref, onSubmit, showFieldErrors } = useSchemaForm<Values>({
    initialValues: { email: '', recaptchaResponse: '' },
    schema: RequestPasswordResetBody,
    options: { validateInputOnBlur: ['email'] },
  });
  const [captchaKey, setCaptchaKey] = useState(0);

  const request = useAction(
    (body: RequestPasswordResetBody) => requestPasswordReset(RequestPasswordResetBody.parse(body)),
    {
      onError: showFieldErrors,
      onSettled: () => {
        // The answer was spent either way; another request needs a new one.
        form.setFieldValue('recaptchaResponse', '');
        setCaptchaKey((key) => key + 1);
      },
    },
  );
  // Spec 5: submit is disabled while submitting or invalid.
  const valid = form.isValid();
  const feedback = request.succeeded
    ? { kind: 'success' as const, text: t('passwordLost.success') }
    : request.error !== undefined
      ? { kind: 'error' as const, text: t('passwordLost.error', { error: apiErrorText(request.error, t) }) }
      : null;

  return (
    <div className="p-page">
      <Card>
        <h1 className="p-title">{t('passwordLost.title')}</h1>
        <p className="p-text-sm">{t('passwordLost.intro')}</p>
        <form ref={ref} onSubmit={onSubmit((values) => request.run(values))} noValidate className="p-stack-sm">
          <TextField
            label={t('passwordLost.email')}
            type="email"
            name="email"
            autoComplete="email"
            autoFocus
            {...form.getInputProps('email')}
          />
          <Captcha key={captchaKey} onChange={(response) => form.setFieldValue('recaptchaResponse', response ?? '')} />
          {feedback && (
            <Alert
              color={feedback.kind === 'success' ? 'teal' : 'red'}
              role={feedback.kind === 'success' ? 'status' : 'alert'}
              data-testid="password-lost-feedback"
            >
              {feedback.text}
            </Alert>
          )}
          <Button type="submit" loading={request.pending} disabled={!valid || request.pending} fullWidth>
            {t('passwordLost.submit')}
          </Button>
        </form>
        <PublicLink to={localize('/login')} className="p-anchor p-anchor-sm">
          {t('passwordLost.backToLogin')}
        </PublicLink>
      </Card>
    </div>
  );
}
