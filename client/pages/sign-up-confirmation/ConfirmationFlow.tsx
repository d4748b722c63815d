import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { GRAPH_DATABASES, type GraphDatabase, type UseCase, USE_CASES } from '../../../common/domain';
import {
  type SignupConfirmBody,
  type SignupPreview,
  signupPasswordStepFor,
} from '../../../common/api/signup-confirmation';
import { ApiError } from '../../api/client';
import { confirmSignup } from '../../api/signup-confirmation';
import { apiErrorText, namesField } from '../../components/forms';
import { useSchemaForm } from '../../components/use-schema-form';
import { useFinishJoining } from '../invitation/shared';
import { LegalStep } from '../invitation/LegalStep';
import { splitFullName, stepAfterClick } from './wizard';
import { ChoiceStep, type PasswordValues, PasswordStep, StepButtons, StepNav } from './WizardSteps';

type Phase = 'wizard' | 'eula' | 'gdpr' | 'submit';

/** The fields of the password step, on which the server may refuse what was typed. */
const PASSWORD_STEP_FIELDS = ['firstName', 'lastName', 'password', 'confirmPassword'] as const;

/** Refusals after which this link can do nothing more: the error page says why. */
const endsSignup = (error: unknown) =>
  error instanceof ApiError && (error.code.startsWith('signup_') || error.status === 404);

/**
 * The confirmation after its link is loaded (spec 2): the wizard's three steps (Use Cases, Graph
 * Database, Password), then the EULA, then the GDPR notice, whose acceptance sends the confirmation
 * by itself. Success reads the profile again and opens the new customer's page; a failure says why
 * and offers to try again, or ends on the error page when the link can do nothing more.
 */
export function ConfirmationFlow({
  signupKey,
  preview,
  onEnded,
}: {
  signupKey: string;
  preview: SignupPreview;
  onEnded: (error: unknown) => void;
}) {
  const { t } = useTranslation();
  const finish = useFinishJoining();
  const [phase, setPhase] = useState<Phase>('wizard');
  const [step, setStep] = useState(0);
  const [useCase, setUseCase] = useState<UseCase | null>(null);
  const [graphDB, setGraphDB] = useState<GraphDatabase | null>(null);
  const [choiceError, setChoiceError] = useState<string | null>(null);
  // the password may not be made of the address, the names or the company (decision 085): checked here
  // as one types; a common password only the server can tell, and its refusal lands on the field
  const schema = useMemo(() => signupPasswordStepFor(preview), [preview]);
  const { form, ref, onSubmit, showFieldErrors } = useSchemaForm<PasswordValues>({
    initialValues: { ...splitFullName(preview.invitedFullName), password: '', confirmPassword: '' },
    schema,
    options: { validateInputOnBlur: true },
  });

  const confirm = useMutation({
    mutationFn: (body: SignupConfirmBody) => confirmSignup(signupKey, body),
    onSuccess: ({ customerId }) =>
      finish(customerId, preview.companyName, t('signUpConfirmation.created', { company: preview.companyName })),
    onError: (error) => {
      if (endsSignup(error)) onEnded(error);
      // a refused password (a common one) or name: back on the password step, the focus on the field
      // that says why
      else if (PASSWORD_STEP_FIELDS.some((field) => namesField(error, field))) backToPassword(error);
    },
  });

  /** The current choice step is answered, else its error shows (and goes once something is chosen). */
  const choiceAnswered = (index: number) => {
    const chosen = index === 0 ? useCase : graphDB;
    if (chosen) return true;
    setChoiceError(t(index === 0 ? 'signUpConfirmation.useCaseRequired' : 'signUpConfirmation.graphDbRequired'));
    return false;
  };
  const validateCurrent = () => (step < 2 ? choiceAnswered(step) : !form.validate().hasErrors);
  const goTo = (requested: number) => {
    const target = stepAfterClick(step, requested, validateCurrent);
    if (target !== step) setChoiceError(null);
    setStep(target);
  };

  const submit = () => {
    if (!useCase || !graphDB) return setPhase('wizard');
    setPhase('submit');
    const { firstName, lastName, password, confirmPassword } = form.getValues();
    confirm.mutate({ firstName, lastName, password, confirmPassword, useCase, graphDB });
  };
  /**
   * Back to the password step from a failure, with what the server refused shown on its fields and
   * the focus on the first of them.
   */
  function backToPassword(error: unknown) {
    showFieldErrors(error);
    setStep(2);
    setPhase('wizard');
  }

  switch (phase) {
    case 'eula':
      return (
        <LegalStep
          document="terms-and-conditions"
          title={t('signUpConfirmation.eulaTitle')}
          onAccept={() => setPhase('gdpr')}
          onBack={() => setPhase('wizard')}
        />
      );
    case 'gdpr':
      return (
        <LegalStep
          document="privacy-policy"
          title={t('signUpConfirmation.gdprTitle')}
          onAccept={submit}
          onBack={() => setPhase('eula')}
        />
      );
    case 'submit':
      if (confirm.isError) {
        return (
          <Stack gap="md">
            <Alert color="red" role="alert" data-testid="signup-confirm-error">
              {t('signUpConfirmation.failed', { error: apiErrorText(confirm.error, t) })}
            </Alert>
            <Group justify="space-between">
              <Button variant="default" onClick={() => backToPassword(confirm.error)}>
                {t('signUpConfirmation.back')}
              </Button>
              <Button onClick={submit} data-testid="signup-confirm-retry">
                {t('signUpConfirmation.retry')}
              </Button>
            </Group>
          </Stack>
        );
      }
      return (
        <Group gap="sm" role="status" data-testid="signup-confirm-pending">
          <Loader size="sm" />
          <Text>{t('signUpConfirmation.creating')}</Text>
        </Group>
      );
    case 'wizard':
      break;
  }

  const back = step > 0 ? () => goTo(step - 1) : undefined;
  return (
    <Stack gap="md">
      <StepNav current={step} onStep={goTo} />
      {step === 0 && (
        <ChoiceStep<UseCase>
          title={t('signUpConfirmation.steps.useCase')}
          question={t('signUpConfirmation.useCaseQuestion')}
          options={USE_CASES}
          labelOf={(option) => t(`signUpConfirmation.useCases.${option}`)}
          value={useCase}
          error={choiceError}
          onChange={(option) => {
            setUseCase(option);
            setChoiceError(null);
          }}
          testId="wizard-use-case"
        />
      )}
      {step === 1 && (
        <ChoiceStep<GraphDatabase>
          title={t('signUpConfirmation.steps.graphDb')}
          question={t('signUpConfirmation.graphDbQuestion')}
          options={GRAPH_DATABASES}
          labelOf={(option) => t(`signUpConfirmation.graphDatabases.${option}`)}
          value={graphDB}
          error={choiceError}
          onChange={(option) => {
            setGraphDB(option);
            setChoiceError(null);
          }}
          testId="wizard-graph-db"
        />
      )}
      {step < 2 ? (
        <StepButtons onBack={back} next={{ onClick: () => goTo(step + 1) }} />
      ) : (
        <form ref={ref} noValidate onSubmit={onSubmit(() => setPhase('eula'))}>
          <PasswordStep form={form} />
          <StepButtons onBack={back} next={{ type: 'submit' }} />
        </form>
      )}
    </Stack>
  );
}
