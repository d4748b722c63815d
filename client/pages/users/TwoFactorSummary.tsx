import { Badge, Group, Text } from '@mantine/core';
import { useTranslation } from '../../i18n/use-translation';
import type { UserTwoFactor } from '../../../common/api/users';

export const hasSecondFactor = (factors: UserTwoFactor) => factors.passkeys > 0 || factors.authenticator;

/** Whether an account has two-factor sign-in on: how many passkeys, and whether an authenticator app. */
export function TwoFactorSummary({ factors, testId }: { factors: UserTwoFactor; testId?: string }) {
  const { t } = useTranslation();
  const on = hasSecondFactor(factors);
  return (
    <Group gap={6} wrap="wrap" data-testid={testId}>
      <Badge color={on ? 'teal' : 'gray'} variant="light">
        {t(on ? 'users.twoFactor.on' : 'users.twoFactor.off')}
      </Badge>{' '}
      <Text size="sm" span>
        {t('users.twoFactor.detail', {
          count: factors.passkeys,
          app: t(factors.authenticator ? 'users.twoFactor.yes' : 'users.twoFactor.no'),
        })}
      </Text>
    </Group>
  );
}
