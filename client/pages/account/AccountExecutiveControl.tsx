import { ActionIcon, Anchor, Group, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import type { Customer } from '../../../common/api/customers';
import type { Role } from '../../../common/roles';
import { lazyFormDialog } from '../../components/FormModal';
import { PencilIcon } from '../../components/icons';
import { Tooltip } from '../../components/Tooltip';

// the picker (Mantine's Select, its combobox and floating-ui) comes when first opened (decision 092)
const AccountExecutiveModal = lazyFormDialog(() =>
  import('./AccountExecutiveModal').then((module) => module.AccountExecutiveModal),
);

/** The customer's own people read "your account executive". */
const CONTACT_ROLES: readonly Role[] = ['businessOwner', 'technicalContact', 'endUser'];

/**
 * The account executive of a customer, in the customer page's footer: their name and e-mail, and for
 * the roles with manageLicences there (account executive, admin, product manager) a pencil that opens
 * the picker (PUT /api/customers/{id}/account-executive, decision 025).
 */
export function AccountExecutiveControl({ customer }: { customer: Customer }) {
  const { t } = useTranslation();
  const canChange = customer.can.changeAccountExecutive;
  const [modal, setModal] = useState({ opened: false, formKey: 0 });
  const executive = customer.accountExecutive;
  if (!executive && !canChange) return null;
  return (
    <Group gap={6} data-testid="footer-account-executive">
      <Text size="sm">
        {executive ? (
          <>
            {CONTACT_ROLES.includes(customer.yourRole)
              ? t('account.footer.accountExecutive')
              : t('customers.accountExecutive.label')}{' '}
            <Anchor href={`mailto:${executive.email}`}>{executive.fullName}</Anchor>
            {` (${executive.email})`}
          </>
        ) : (
          t('customers.accountExecutive.none')
        )}
      </Text>
      {canChange && (
        <>
          <Tooltip label={t('customers.accountExecutive.change')} withinPortal={false}>
            <ActionIcon
              variant="subtle"
              size="sm"
              aria-label={t('customers.accountExecutive.change')}
              onClick={() => setModal((m) => ({ opened: true, formKey: m.formKey + 1 }))}
              data-testid="account-executive-change"
            >
              <PencilIcon size={14} />
            </ActionIcon>
          </Tooltip>
          <AccountExecutiveModal
            opened={modal.opened}
            customer={customer}
            formKey={modal.formKey}
            onClose={() => setModal((m) => ({ ...m, opened: false }))}
          />
        </>
      )}
    </Group>
  );
}
