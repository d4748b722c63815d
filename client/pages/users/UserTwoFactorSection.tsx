import { Button, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import type { User, UserTwoFactor } from '../../../common/api/users';
import { resetTwoFactor } from '../../api/two-factor';
import { userKeys } from '../../api/users';
import { ConfirmModal } from '../../components/ConfirmModal';
import { apiErrorText } from '../../components/forms';
import { notify } from '../../components/notify';
import { hasSecondFactor, TwoFactorSummary } from './TwoFactorSummary';

const NO_FACTOR: UserTwoFactor = { passkeys: 0, authenticator: false };

/**
 * A user's two-factor sign-in in the user's modal: whether it is on, and an admin's reset of another
 * user's second factors next to it (audited; the user is told by mail). One's own factors are
 * managed on one's settings page.
 */
export function UserTwoFactorSection({ user, self }: { user: User; self: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [factors, setFactors] = useState(user.twoFactor);
  const [asking, setAsking] = useState(false);
  const name = user.fullname || user.email;
  const reset = useMutation({
    mutationFn: () => resetTwoFactor(user.id),
    onSuccess: async () => {
      setFactors(NO_FACTOR);
      notify({ status: 'success', message: t('users.resetTwoFactorDone', { name }) });
      await queryClient.invalidateQueries({ queryKey: userKeys.all });
    },
    onError: (error) => notify({ status: 'error', message: apiErrorText(error, t) }),
    onSettled: () => setAsking(false),
  });
  return (
    <Stack gap={4} data-testid="user-two-factor-section">
      <Text size="sm" fw={500}>
        {t('users.twoFactor.title')}
      </Text>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <TwoFactorSummary factors={factors} testId="user-modal-two-factor" />
        {!self && hasSecondFactor(factors) && (
          <Button
            variant="light"
            color="red"
            size="xs"
            onClick={() => setAsking(true)}
            data-testid="user-reset-two-factor"
          >
            {t('users.resetTwoFactor')}
          </Button>
        )}
      </Group>
      {!self && hasSecondFactor(factors) && (
        <Text size="sm" c="dimmed">
          {t('users.resetTwoFactorHint')}
        </Text>
      )}
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
    </Stack>
  );
}
