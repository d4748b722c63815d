import { Alert, Anchor, Button, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { RequestPasswordResetBody } from '../../../common/api/auth';
import { requestPasswordReset } from '../../api/auth';
import { useLocalize } from '../../app/locale';
import { usePageTitle } from '../../app/title';
import { Captcha } from '../../components/captcha/Captcha';
import { apiErrorText } from '../../components/forms';
import { useSchemaForm } from '../../components/useSchemaForm';

interface Values extends Record<string, unknown> {
  email: string;
  recaptchaResponse: string;
}

export function PasswordLostPage() {
  const { t } = useTranslation();
  const localize = useLocalize();
  usePageTitle(t('passwordLost.title'));
  const { form, ref, onSubmit, showFieldErrors } = useSchemaForm<Values>({
    initialValues: { email: '', recaptchaResponse: '' },
    schema: RequestPasswordResetBody,
    options: { validateInputOnBlur: ['email'] },
  });
  const [captchaKey, setCaptchaKey] = useState(0);

  const request = useMutation({
    mutationFn: (body: RequestPasswordResetBody) => requestPasswordReset(RequestPasswordResetBody.parse(body)),
    onError: showFieldErrors,
    onSettled: () => {
      // The answer was spent either way; another request needs a new one.
      form.setFieldValue('recaptchaResponse', '');
      setCaptchaKey((key) => key + 1);
    },
  });
  // Spec 5: submit is disabled while submitting or invalid.
  const valid = form.isValid();
  const feedback = request.isSuccess
    ? { kind: 'success' as const, text: t('passwordLost.success') }
    : request.isError
      ? { kind: 'error' as const, text: t('passwordLost.error', { error: apiErrorText(request.error, t) }) }
      : null;

  return (
    <Paper withBorder shadow="sm" p="xl" radius="md" maw={440} mx="auto" mt="xl">
      <Stack gap="md">
        <Title order={1} size="h2">
          {t('passwordLost.title')}
        </Title>
        <Text size="sm">{t('passwordLost.intro')}</Text>
        <form ref={ref} onSubmit={onSubmit((values) => request.mutate(values))} noValidate>
          <Stack gap="sm">
            <TextInput
              label={t('passwordLost.email')}
              type="email"
              name="email"
              autoComplete="email"
              autoFocus
              {...form.getInputProps('email')}
            />
            <Captcha
              key={captchaKey}
              onChange={(response) => form.setFieldValue('recaptchaResponse', response ?? '')}
            />
            {feedback && (
              <Alert
                color={feedback.kind === 'success' ? 'teal' : 'red'}
                role={feedback.kind === 'success' ? 'status' : 'alert'}
                data-testid="password-lost-feedback"
              >
                {feedback.text}
              </Alert>
            )}
            <Button type="submit" loading={request.isPending} disabled={!valid || request.isPending} fullWidth>
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
