import { Anchor, Button, Group, NativeSelect, Stack, Table, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { useTranslation } from '../../../i18n/use-translation';
import type { Customer } from '../../../../common/api/customers';
import type { LogEntry } from '../../../../common/api/logs';
import { AUDIT_ACTIONS, type AuditAction, isAuditAction } from '../../../../common/audit';
import { formatDateTime } from '../../../../common/format';
import { DEFAULT_PAGE_LENGTH } from '../../../../common/pagination';
import { FIRST_SCREEN_FRESH_MS } from '../../../api/customer-page';
import { logExportUrl, logPageQuery, type LogPosition } from '../../../api/logs';
import { useLocale } from '../../../app/locale';
import { DataTable } from '../../../components/DataTable';
import { DelayedLoader } from '../../../components/DelayedLoader';
import { Pagination } from '../../../components/Pagination';
import { usePageInAddress } from '../../../components/use-searched-pages';
import { AccountSection } from '../AccountSection';
import { LoadError } from '../../../components/LoadError';

type TFunction = ReturnType<typeof useTranslation>['t'];

/** What happened, in words: a download and an accepted invitation say what and by whom; others by name. */
function describeEntry(entry: LogEntry, t: TFunction): string {
  if (entry.action === 'downloadArtifact') {
    const values = {
      product: entry.productName ?? t('recentActions.unknownProduct'),
      version: entry.productVersion ?? '',
      platform: entry.productPlatform
        ? t(`recentActions.platforms.${entry.productPlatform}`, { defaultValue: entry.productPlatform })
        : '',
    };
    return t(entry.anonymousDownload ? 'recentActions.downloadedAnonymously' : 'recentActions.downloaded', values);
  }
  if (entry.action === 'acceptInvitation') {
    // the inviter's name as it was then, else their address (spec: invitationFrom)
    const name = typeof entry.data.inviterFullName === 'string' ? entry.data.inviterFullName : entry.invitationFrom;
    return name ? t('recentActions.joinedInvitedBy', { name }) : t('recentActions.joined');
  }
  return t(`recentActions.actions.${entry.action}`);
}

/** The jobs that change a customer's data, by the part of the portal that acts through them. */
const JOB_AUTHORS: Record<string, string> = {
  'billing.graceEnd': 'recentActions.authors.paymentGrace',
  'instances.order': 'recentActions.authors.provisioner',
  'instances.simulate': 'recentActions.authors.provisioner',
  'instances.deleteData': 'recentActions.authors.provisioner',
  'crm.syncCustomer': 'recentActions.authors.crm',
};

/**
 * Who acted, in words, when it was no user: the integration or the portal's job that did it (a
 * payment status from the payment provider, an instance's from the provisioner); "Anonymous" is
 * only a visitor without a session (a download by its secret link).
 */
function authorOf(entry: Pick<LogEntry, 'actorKind' | 'actorName'>, t: TFunction): string {
  const name = entry.actorName ?? '';
  switch (entry.actorKind) {
    case 'integration':
      return t(`recentActions.authors.integrations.${name}`, {
        defaultValue: t('recentActions.authors.integration', { name }),
      });
    case 'job':
      return JOB_AUTHORS[name] ? t(JOB_AUTHORS[name]) : t('recentActions.authors.job', { name });
    case 'token':
      return t('recentActions.authors.token', { name });
    case 'system':
      return t('recentActions.authors.system');
    default:
      return t('recentActions.anonymous');
  }
}

/**
 * A customer's recent actions (spec section 2, customer page): action, author and date, newest first,
 * by page, filtered by action, with an export of what the filter keeps. Only the roles that see the
 * team see it (spec section 6, "Logs"; the page's `accountSections`); for the others nothing renders
 * and nothing is loaded.
 */
export function RecentActionsSection({ customer }: { customer: Customer }) {
  if (!customer.can.viewRecentActions) return null;
  return <RecentActions customerId={customer.id} />;
}

/** The address parameter of the action filter (`?actions=inviteMember`); its page is `actions-page`. */
const ACTION_PARAM = 'actions';

function RecentActions({ customerId }: { customerId: number }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const [params, setParams] = useSearchParams();
  const asked = params.get(ACTION_PARAM) ?? '';
  const { offset, setOffset } = usePageInAddress('actions-page', DEFAULT_PAGE_LENGTH);
  const position: LogPosition = { offset, action: isAuditAction(asked) ? asked : null };
  const logs = useQuery({
    ...logPageQuery(customerId, position, DEFAULT_PAGE_LENGTH),
    placeholderData: keepPreviousData,
    staleTime: FIRST_SCREEN_FRESH_MS,
  });
  const entries = logs.data?.data ?? [];
  const stale = logs.isPlaceholderData && logs.isFetching;
  // A new filter replaces the address's current step and starts again from the first page.
  const setAction = (value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (isAuditAction(value)) next.set(ACTION_PARAM, value);
        else next.delete(ACTION_PARAM);
        next.delete('actions-page');
        return next;
      },
      { replace: true, preventScrollReset: true },
    );

  return (
    <AccountSection
      title={t('account.recentActions.title')}
      testId="recent-actions-section"
      actions={
        <Group align="flex-end" wrap="wrap">
          <NativeSelect
            label={t('recentActions.filter')}
            value={position.action ?? ''}
            onChange={(event) => setAction(event.currentTarget.value)}
            data={[
              { value: '', label: t('recentActions.allActions') },
              ...AUDIT_ACTIONS.map((action: AuditAction) => ({
                value: action,
                label: t(`recentActions.actions.${action}`),
              })),
            ]}
            data-testid="recent-actions-filter"
          />
          <Button
            component="a"
            variant="default"
            href={logExportUrl(customerId, position.action)}
            download
            data-testid="recent-actions-export"
          >
            {t('recentActions.export')}
          </Button>
        </Group>
      }
    >
      <Stack gap="md" mt="md">
        {(logs.isPending || stale) && <DelayedLoader />}
        <LoadError query={logs} messageKey="recentActions.loadError" testId="recent-actions-error" />
        {logs.data && entries.length === 0 && (
          <Text role="status" c="dimmed" data-testid="recent-actions-empty">
            {position.action
              ? t('recentActions.emptyFiltered', { action: t(`recentActions.actions.${position.action}`) })
              : t('recentActions.empty')}
          </Text>
        )}
        {logs.data && entries.length > 0 && (
          <>
            <DataTable
              label={t('recentActions.table')}
              minWidth={560}
              striped
              data-testid="recent-actions-table"
              aria-busy={logs.isFetching}
              style={stale ? { opacity: 0.5 } : undefined}
            >
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('recentActions.columns.action')}</Table.Th>
                  <Table.Th>{t('recentActions.columns.author')}</Table.Th>
                  <Table.Th>{t('recentActions.columns.date')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {entries.map((entry) => (
                  <Table.Tr key={entry.id} data-testid="recent-action" data-action={entry.action}>
                    <Table.Td>{describeEntry(entry, t)}</Table.Td>
                    <Table.Td>
                      {entry.actorEmail ? (
                        <Anchor href={`mailto:${entry.actorEmail}`} size="sm">
                          {entry.actorEmail}
                        </Anchor>
                      ) : (
                        <span data-testid="recent-action-author">{authorOf(entry, t)}</span>
                      )}
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      <time dateTime={entry.date}>{formatDateTime(entry.date, locale)}</time>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </DataTable>
            <Pagination
              offset={logs.data.offset}
              pageLength={DEFAULT_PAGE_LENGTH}
              total={logs.data.total}
              totalCapped={logs.data.totalCapped}
              onChange={setOffset}
            />
          </>
        )}
      </Stack>
    </AccountSection>
  );
}
