import { Alert, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import {
  AcceptNewInvitationForm,
  FULL_NAME_MAX,
  type InvitationPreview,
} from '../../../common/api/invitation-acceptance';
import { acceptAsNewUser } from '../../api/invitation-acceptance';
import { apiErrorText, fieldErrorsOf } from '../../components/forms';
import { useSchemaForm } from '../../components/use-schema-form';
import { LegalStep, StepHeading } from './LegalStep';
import { endsInvitation, InvitationError, InvitationSummary, useFinishJoining } from './shared';

const STEPS = ['card', 'eula', 'gdpr', 'form'] as const;
type Step = (typeof STEPS)[number];

function SignUpStep({
  invitationKey,
  invitation,
  onBack,
  onEnded,
}: {
  invitationKey: string;
  invitation: InvitationPreview;
  onBack: () => void;
  onEnded: (error: unknown) => void;
}) {
  const { t } = useTranslation();
  const finish = useFinishJoining();
  const { form, ref, onSubmit, showFieldErrors } = useSchemaForm<AcceptNewInvitationForm>({
    initialValues: { fullName: invitation.invitedFullName.slice(0, FULL_NAME_MAX), password: '', confirmation: '' },
    schema: AcceptNewInvitationForm,
    options: { validateInputOnBlur: true },
  });
  const signUp = useMutation({
    mutationFn: ({ fullName, password }: AcceptNewInvitationForm) =>
      acceptAsNewUser(invitationKey, { fullName, password }),
    onSuccess: ({ customerId }) => finish(customerId, invitation.customerName),
    onError: (error) => (endsInvitation(error) ? onEnded(error) : showFieldErrors(error)),
  });
  const feedback = signUp.error
    ? t('invitation.error', {
        error: Object.values(fieldErrorsOf(signUp.error, t))[0] ?? apiErrorText(signUp.error, t),
      })
    : null;
  return (
    <form ref={ref} onSubmit={onSubmit((values) => signUp.mutate(values))} noValidate>
      <Stack gap="sm">
        <StepHeading focus>{t('invitation.formTitle')}</StepHeading>
        <TextInput
          label={t('invitation.fullName')}
          name="name"
          autoComplete="name"
          required
          withAsterisk={false}
          {...form.getInputProps('fullName')}
        />
        <TextInput
          label={t('invitation.password')}
          type="password"
          name="new-password"
          autoComplete="new-password"
          description={t('resetPassword.rules')}
          required
          withAsterisk={false}
          {...form.getInputProps('password')}
        />
        <TextInput
          label={t('invitation.confirmation')}
          type="password"
          name="confirm-password"
          autoComplete="new-password"
          required
          withAsterisk={false}
          {...form.getInputProps('confirmation')}
        />
        {feedback && (
          <Alert color="red" role="alert" data-testid="invitation-feedback">
            {feedback}
          </Alert>
        )}
        <Group justify="space-between">
          <Button variant="default" onClick={onBack} disabled={signUp.isPending}>
            {t('invitation.back')}
          </Button>
          <Button type="submit" loading={signUp.isPending}>
            {t('invitation.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * A new address joins in four steps (spec 2): the join card, the EULA, the GDPR notice, then the
 * sign-up form; Back returns one step. A refusal that ends the invitation shows the error page.
 */
export function NewUserFlow({ invitationKey, invitation }: { invitationKey: string; invitation: InvitationPreview }) {
  const { t } = useTranslation();
  const [step, setStep] = useState<Step>('card');
  const [ended, setEnded] = useState<unknown>(null);
  const index = STEPS.indexOf(step);
  const next = () => setStep(STEPS[Math.min(index + 1, STEPS.length - 1)]);
  const back = () => setStep(STEPS[Math.max(index - 1, 0)]);
  if (ended) return <InvitationError error={ended} />;

  let body: React.ReactNode;
  switch (step) {
    case 'card':
      body = (
        <Stack gap="md">
          <Text>{t('invitation.newUserIntro')}</Text>
          <Group justify="flex-end">
            <Button onClick={next} data-testid="invitation-join">
              {t('invitation.join')}
            </Button>
          </Group>
        </Stack>
      );
      break;
    case 'eula':
      body = (
        <LegalStep document="terms-and-conditions" title={t('invitation.eulaTitle')} onAccept={next} onBack={back} />
      );
      break;
    case 'gdpr':
      body = <LegalStep document="privacy-policy" title={t('invitation.gdprTitle')} onAccept={next} onBack={back} />;
      break;
    case 'form':
      body = <SignUpStep invitationKey={invitationKey} invitation={invitation} onBack={back} onEnded={setEnded} />;
      break;
  }

  return (
    <Paper withBorder shadow="sm" p={{ base: 'md', sm: 'xl' }} radius="md" maw={720} mx="auto" mt="xl">
      <Stack gap="md">
        <Title order={1} size="h2">
          {t('invitation.heading', { customer: invitation.customerName })}
        </Title>
        <InvitationSummary invitation={invitation} />
        <Text size="sm" c="dimmed" data-testid="invitation-step">
          {t('invitation.step', { current: index + 1, total: STEPS.length })}
        </Text>
        {body}
      </Stack>
    </Paper>
  );
}
