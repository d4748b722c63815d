import { Button, Group, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import type { User } from '../../../common/api/users';
import { resetTwoFactor } from '../../api/two-factor';
import { ConfirmModal } from '../../components/ConfirmModal';
import { apiErrorText } from '../../components/forms';
import { notify } from '../../components/notify';

/** An admin's reset of another user's second factors (audited; the user is told by mail). */
export function ResetTwoFactor({ user }: { user: User }) {
  const { t } = useTranslation();
  const [asking, setAsking] = useState(false);
  const name = user.fullname || user.email;
  const reset = useMutation({
    mutationFn: () => resetTwoFactor(user.id),
    onSuccess: () => notify({ status: 'success', message: t('users.resetTwoFactorDone', { name }) }),
    onError: (error) => notify({ status: 'error', message: apiErrorText(error, t) }),
    onSettled: () => setAsking(false),
  });
  return (
    <>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm" c="dimmed">
          {t('users.resetTwoFactorHint')}
        </Text>
        <Button
          variant="light"
          color="red"
          size="xs"
          onClick={() => setAsking(true)}
          data-testid="user-reset-two-factor"
        >
          {t('users.resetTwoFactor')}
        </Button>
      </Group>
      <ConfirmModal
        opened={asking}
        title={t('users.resetTwoFactor')}
        message={t('users.resetTwoFactorConfirm', { name })}
        cancelLabel={t('users.modal.cancel')}
        confirmLabel={t('users.resetTwoFactor')}
        confirmColor="red"
        pending={reset.isPending}
        testId="reset-two-factor-modal"
        confirmTestId="reset-two-factor-confirm"
        onCancel={() => setAsking(false)}
        onConfirm={() => reset.mutate()}
      />
    </>
  );
}
