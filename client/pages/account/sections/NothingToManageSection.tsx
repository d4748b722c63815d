import { Anchor, List, Text } from '@mantine/core';
import { useTranslation } from '../../../i18n/use-translation';
import { Link } from 'react-router';
import type { Customer } from '../../../../common/api/customers';
import { useLocalize } from '../../../app/locale';
import { AccountSection } from '../AccountSection';

/**
 * For a role that sees none of the customer's lists (an end user: no licences, versions or team):
 * what this page offers them and whom to ask for more, rather than a page that seems empty.
 */
export function NothingToManageSection({ customer }: { customer: Customer }) {
  const { t } = useTranslation();
  const localize = useLocalize();
  const executive = customer.accountExecutive;
  return (
    <AccountSection title={t('account.nothingToManage.title')} testId="nothing-to-manage">
      <Text mt="xs">
        {t('account.nothingToManage.role', { role: t(`roles.${customer.yourRole}`), customer: customer.name })}
      </Text>
      <List mt="xs" spacing={4}>
        <List.Item>{t('account.nothingToManage.resources')}</List.Item>
        <List.Item>
          <Anchor component={Link} to={localize('/settings')} data-testid="nothing-to-manage-settings">
            {t('account.nothingToManage.settings')}
          </Anchor>
        </List.Item>
        <List.Item data-testid="nothing-to-manage-ask">
          {executive ? (
            <>
              {t('account.nothingToManage.askExecutive')}{' '}
              <Anchor href={`mailto:${executive.email}`}>{executive.fullName}</Anchor>
            </>
          ) : (
            t('account.nothingToManage.askManager')
          )}
        </List.Item>
      </List>
    </AccountSection>
  );
}
