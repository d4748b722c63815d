import { Anchor, Group, Text } from '@mantine/core';
import { useTranslation } from '../../../i18n/use-translation';
import type { Customer } from '../../../../common/api/customers';
import { AccountExecutiveControl } from '../AccountExecutiveControl';
import { accountSections } from '../sections';

/**
 * The page's footer (spec 2): the account executive's contact for everyone, the billing contact for
 * the project manager only.
 */
export function AccountFooter({ customer }: { customer: Customer }) {
  const { t } = useTranslation();
  const { footer } = accountSections(customer);
  const executive = footer.accountExecutive ? customer.accountExecutive : null;
  const billingEmail = footer.billingContact ? customer.billingEmail : null;
  const canChange = customer.can.changeAccountExecutive;
  if (!executive && !billingEmail && !canChange) return null;
  return (
    <Group
      component="footer"
      gap="xl"
      py="sm"
      data-testid="account-footer"
      style={{ rowGap: 'var(--mantine-spacing-xs)' }}
    >
      {(executive || canChange) && <AccountExecutiveControl customer={customer} />}
      {billingEmail && (
        <Text size="sm" data-testid="footer-billing">
          {t('account.footer.billing')} <Anchor href={`mailto:${billingEmail}`}>{billingEmail}</Anchor>
        </Text>
      )}
    </Group>
  );
}
