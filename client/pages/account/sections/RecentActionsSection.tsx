import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Customer } from '../../../../common/api/customers';
import { AccountSection } from '../AccountSection';

/**
 * The recent-actions log (spec 2). The page renders it only for the roles that see the team
 * (`accountSections`), so nobody else ever asks for the logs.
 */
export function RecentActionsSection(_props: { customer: Customer }) {
  const { t } = useTranslation();
  return (
    <AccountSection title={t('account.recentActions.title')} testId="recent-actions-section">
      <Text c="dimmed" mt="xs">
        {t('account.coming')}
      </Text>
    </AccountSection>
  );
}
