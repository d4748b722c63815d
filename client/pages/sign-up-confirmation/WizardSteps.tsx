import {
  Box,
  Button,
  Group,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useId } from 'react';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from '../../i18n/use-translation';
import type { SignupPasswordStep } from '../../../common/api/signup-confirmation';
import { StepHeading } from '../invitation/LegalStep';
import { stepReachable, WIZARD_STEPS } from './wizard';
import './sign-up-confirmation.css';

/** The parts of the confirmation's wizard (spec 2): its progress, its step buttons, its three steps. */

/** The progress bar and the three steps' buttons: earlier ones and the next one can be clicked. */
export function StepNav({ current, onStep }: { current: number; onStep: (step: number) => void }) {
  const { t } = useTranslation();
  const total = WIZARD_STEPS.length;
  const progress = t('signUpConfirmation.progress', { current: current + 1, total });
  return (
    <Stack gap="xs">
      <div
        role="progressbar"
        aria-label={t('signUpConfirmation.stepsLabel')}
        aria-valuemin={1}
        aria-valuemax={total}
        aria-valuenow={current + 1}
        aria-valuetext={progress}
        data-testid="wizard-progress"
      >
        <Progress.Root size="sm">
          <Progress.Section value={((current + 1) / total) * 100} withAria={false} />
        </Progress.Root>
      </div>
      <nav aria-label={t('signUpConfirmation.stepsLabel')}>
        <ol className="signup-steps">
          {WIZARD_STEPS.map((step, index) => {
            const state = index < current ? 'done' : index === current ? 'current' : 'locked';
            const reachable = stepReachable(current, index);
            return (
              <li key={step}>
                <UnstyledButton
                  className="signup-step"
                  data-state={state}
                  onClick={() => onStep(index)}
                  disabled={!reachable}
                  aria-current={index === current ? 'step' : undefined}
                  data-testid={`wizard-step-${index + 1}`}
                >
                  <span className="signup-step-number" aria-hidden="true">
                    {index + 1}
                  </span>
                  <span className="signup-step-label">{t(`signUpConfirmation.steps.${step}`)}</span>
                  <VisuallyHidden>{` (${t(`signUpConfirmation.stepState.${state}`)})`}</VisuallyHidden>
                </UnstyledButton>
              </li>
            );
          })}
        </ol>
      </nav>
      <Text size="sm" c="dimmed" data-testid="wizard-step">
        {progress}
      </Text>
    </Stack>
  );
}

/**
 * A step whose answer is one of a list (use case, graph database): native radio buttons in a
 * fieldset whose legend asks the question (arrow keys move between them); a selection is required,
 * and the error says so until one is made.
 */
export function ChoiceStep<Option extends string>({
  title,
  question,
  options,
  labelOf,
  value,
  error,
  onChange,
  testId,
}: {
  title: string;
  question: string;
  options: readonly Option[];
  labelOf: (option: Option) => string;
  value: Option | null;
  error: string | null;
  onChange: (option: Option) => void;
  testId: string;
}) {
  const errorId = useId();
  return (
    <Stack gap="md">
      <StepHeading focus>{title}</StepHeading>
      <fieldset
        className="signup-choices"
        aria-describedby={error ? errorId : undefined}
        data-error={error ? true : undefined}
        data-testid={testId}
      >
        <legend>{question}</legend>
        <div className="signup-choice-grid">
          {options.map((option) => (
            <label key={option} className="signup-choice" data-checked={value === option || undefined}>
              <input
                type="radio"
                name={testId}
                value={option}
                checked={value === option}
                onChange={() => onChange(option)}
                aria-invalid={error ? true : undefined}
                data-testid={`${testId}-${option}`}
              />
              <span>{labelOf(option)}</span>
            </label>
          ))}
        </div>
        {error && (
          <Text id={errorId} size="sm" c="red.8" mt="xs" data-testid={`${testId}-error`}>
            {error}
          </Text>
        )}
      </fieldset>
    </Stack>
  );
}

export type PasswordValues = SignupPasswordStep & Record<string, unknown>;

/** The password step: the names (prefilled), the password with its rule (15 characters), its confirmation. */
export function PasswordStep({ form }: { form: UseFormReturnType<PasswordValues> }) {
  const { t } = useTranslation();
  const input = (name: keyof SignupPasswordStep) => ({
    required: true,
    withAsterisk: false,
    ...form.getInputProps(name),
  });
  return (
    <Stack gap="sm">
      <StepHeading focus>{t('signUpConfirmation.steps.password')}</StepHeading>
      <Text size="sm">{t('signUpConfirmation.passwordIntro')}</Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextInput label={t('signUpConfirmation.firstName')} autoComplete="given-name" {...input('firstName')} />
        <TextInput label={t('signUpConfirmation.lastName')} autoComplete="family-name" {...input('lastName')} />
      </SimpleGrid>
      <TextInput
        label={t('signUpConfirmation.password')}
        type="password"
        autoComplete="new-password"
        description={t('resetPassword.rules')}
        {...input('password')}
      />
      <TextInput
        label={t('signUpConfirmation.confirmPassword')}
        type="password"
        autoComplete="new-password"
        {...input('confirmPassword')}
      />
    </Stack>
  );
}

/** Back (not on the first step) and Next, under each step. */
export function StepButtons({
  onBack,
  next,
}: {
  onBack?: () => void;
  next: { type: 'submit' } | { onClick: () => void };
}) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" mt="md">
      <Box>
        {onBack && (
          <Button variant="default" onClick={onBack} data-testid="wizard-back">
            {t('signUpConfirmation.back')}
          </Button>
        )}
      </Box>
      <Button {...next} data-testid="wizard-next">
        {t('signUpConfirmation.next')}
      </Button>
    </Group>
  );
}
