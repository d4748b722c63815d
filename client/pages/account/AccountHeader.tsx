import { ActionIcon } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from '../../i18n/use-translation';
import type { Customer } from '../../../common/api/customers';
import { syncCustomer } from '../../api/customers';
import { useConfig } from '../../app/session';
import { apiErrorText } from '../../components/forms';
import { ChartIcon, PencilIcon, RefreshIcon } from '../../components/icons';
import { notify } from '../../components/notify';
import { PageHeader } from '../../components/PageHeader';
import { Tooltip } from '../../components/Tooltip';
import { LicenceAccessLevels } from './licences/LicenceAccessLevels';
import { type AccountSections, telemetryLink } from './sections';

interface AccountHeaderProps {
  customer: Customer;
  header: AccountSections['header'];
  /** opens the customer modal (admins) */
  onEdit?: () => void;
}

/**
 * The customer page's header (spec 2): the name; the admin's pencil; the telemetry dashboard and the
 * CRM sync for staff; the licence access levels for a sales-led customer's contacts (`header.
 * licenceAccessLevels`).
 */
export function AccountHeader({ customer, header, onEdit }: AccountHeaderProps) {
  const { t } = useTranslation();
  const config = useConfig().data;
  const sync = useMutation({
    mutationFn: () => syncCustomer(customer.id),
    onSuccess: () => notify({ status: 'success', message: t('account.sync.success') }),
    onError: (error) =>
      notify({ status: 'error', message: t('account.sync.failure', { error: apiErrorText(error, t) }) }),
  });

  // The tooltips show beside their button, inside the page's main landmark rather than at the end of
  // the body, outside every landmark (axe's `region`).
  const actions = [
    header.edit && onEdit && (
      <Tooltip key="edit" label={t('account.edit')} withinPortal={false}>
        <ActionIcon
          variant="light"
          size="lg"
          aria-label={t('account.edit')}
          onClick={onEdit}
          data-testid="account-edit"
        >
          <PencilIcon />
        </ActionIcon>
      </Tooltip>
    ),
    header.telemetry && config && (
      <Tooltip key="telemetry" label={t('account.telemetry')} withinPortal={false}>
        <ActionIcon
          component="a"
          href={telemetryLink(config.telemetryUrl, customer)}
          target="_blank"
          rel="noopener noreferrer"
          variant="light"
          size="lg"
          aria-label={`${t('account.telemetry')} ${t('app.newTab')}`}
          data-testid="account-telemetry"
        >
          <ChartIcon />
        </ActionIcon>
      </Tooltip>
    ),
    header.sync && (
      <Tooltip key="sync" label={t('account.sync.label')} withinPortal={false}>
        <ActionIcon
          variant="light"
          size="lg"
          aria-label={t('account.sync.label')}
          loading={sync.isPending}
          onClick={() => sync.mutate()}
          data-testid="account-sync"
        >
          <RefreshIcon />
        </ActionIcon>
      </Tooltip>
    ),
  ].filter(Boolean);

  return (
    <PageHeader
      title={customer.name}
      description={header.licenceAccessLevels ? <LicenceAccessLevels customerId={customer.id} /> : undefined}
      actions={actions.length > 0 ? actions : undefined}
    />
  );
}
