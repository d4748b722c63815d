import { Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { ERROR_CODES } from '../../../common/api/errors';
import type { ConfirmIdentityBody } from '../../../common/api/two-factor';
import { ApiError } from '../../api/client';
import { apiErrorText } from '../../components/forms';
import { FormModal, ModalCancelButton, useFormModal, useModalMutation } from '../../components/FormModal';

/** Answers that are about what was typed: shown on the field, the modal stays for another try. */
const IDENTITY_ERRORS: readonly string[] = [
  ERROR_CODES.identityConfirmationRequired,
  ERROR_CODES.wrongPassword,
  ERROR_CODES.secondFactorInvalid,
  ERROR_CODES.loginDelayed,
];

interface ConfirmIdentityModalProps<T> {
  opened: boolean;
  title: string;
  message: string;
  confirmLabel: string;
  confirmColor?: string;
  /** the account has an authenticator app: its code may stand for the password */
  canUseCode: boolean;
  testId: string;
  onClose: () => void;
  action: (identity: ConfirmIdentityBody) => Promise<T>;
  onDone: (result: T) => void;
  /** any other refusal: the modal closes and the caller tells it */
  onFailed: (error: unknown) => void;
}

/**
 * Removing a second factor or remaking the recovery codes (docs/decisions/071): the current password
 * is asked again, or a code of the authenticator app, so a session left open is not enough.
 */
export function ConfirmIdentityModal<T>(props: ConfirmIdentityModalProps<T>) {
  return (
    <FormModal opened={props.opened} onClose={props.onClose} title={props.title}>
      {props.opened && <IdentityForm {...props} />}
    </FormModal>
  );
}

function IdentityForm<T>({
  message,
  confirmLabel,
  confirmColor,
  canUseCode,
  testId,
  action,
  onDone,
  onFailed,
}: ConfirmIdentityModalProps<T>) {
  const { t } = useTranslation();
  const { close } = useFormModal();
  const [withCode, setWithCode] = useState(false);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const confirm = useModalMutation(action, {
    onSuccess: (result) => {
      close();
      onDone(result);
    },
    onError: (failure) => {
      if (failure instanceof ApiError && IDENTITY_ERRORS.includes(failure.code)) {
        setError(apiErrorText(failure, t));
        return;
      }
      close();
      onFailed(failure);
    },
  });
  function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    confirm.mutate(withCode ? { code } : { password });
  }
  function switchMethod() {
    setWithCode((value) => !value);
    setError(null);
  }
  return (
    <form onSubmit={submit} noValidate data-testid={testId}>
      <Stack gap="sm">
        <Text size="sm">{message}</Text>
        {withCode ? (
          <TextInput
            label={t('security.identityCode')}
            name="code"
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={40}
            autoFocus
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
            error={error}
          />
        ) : (
          <PasswordInput
            label={t('security.identityPassword')}
            name="password"
            autoComplete="current-password"
            autoFocus
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            error={error}
          />
        )}
        {canUseCode && (
          <Anchor component="button" type="button" size="sm" onClick={switchMethod} ta="start">
            {withCode ? t('security.identityUsePassword') : t('security.identityUseCode')}
          </Anchor>
        )}
        <Group justify="flex-end">
          <ModalCancelButton>{t('security.cancel')}</ModalCancelButton>
          <Button type="submit" color={confirmColor} loading={confirm.isPending} data-testid={`${testId}-confirm`}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
