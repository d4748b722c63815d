import { Alert, Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from '../../../i18n/use-translation';
import { Link, useSearchParams } from 'react-router';
import type { Customer } from '../../../../common/api/customers';
import type { Licence } from '../../../../common/api/licences';
import { formatDayMonthYear, formatLocalDayMonthYear } from '../../../../common/format';
import { LICENCE_STATUS_COLOURS } from '../../../../common/licence-status';
import { FIRST_SCREEN_FRESH_MS } from '../../../api/customer-page';
import { LICENCES_PAGE_LENGTH, licenceQuery, licencesQuery } from '../../../api/licences';
import { useLocale, useLocalize } from '../../../app/locale';
import { useProfile } from '../../../app/session';
import { DataTable } from '../../../components/DataTable';
import { DelayedLoader } from '../../../components/DelayedLoader';
import { FormModal, lazyFormDialog } from '../../../components/FormModal';
import { apiErrorText } from '../../../components/forms';
import { PlusIcon } from '../../../components/icons';
import { notify } from '../../../components/notify';
import { Pagination } from '../../../components/Pagination';
import { usePageInAddress } from '../../../components/use-searched-pages';
import { AccountSection } from '../AccountSection';
import { LicenceDownloadCell } from '../licences/LicenceDownloadCell';
import { LicenceRowActions } from '../licences/LicenceRowActions';
import { productLabel } from '../licences/product-label';
import '../licences/licences.css';

// its form and schema come when it is first opened (decision 092)
const CustomizationModal = lazyFormDialog(() =>
  import('../licences/CustomizationModal').then((module) => module.CustomizationModal),
);

// The licence form (with its JSON editor) is fetched when it is first opened: most of those who
// see the table never open it. The modal around it is not: a modal that opens as its code arrives
// neither takes nor traps the focus (Mantine's focus trap starts with the modal), so the modal opens
// at once, with the focus in it, and shows the loader until the form comes.
const LicenceForm = lazy(() => import('../licences/LicenceForm').then((module) => ({ default: module.LicenceForm })));

/** The address parameter that opens a licence's renewal (`/accounts/{id}?renew={licenceId}`). */
const RENEW_PARAM = 'renew';

interface ModalState {
  opened: boolean;
  licence: Licence | null;
  formKey: number;
}

/**
 * The renewal named in the address, for those who manage licences: read once, then taken out of the
 * address (a reload does not open it again). The licence comes from the list when it is on the
 * page shown, else on its own.
 */
function useRenewFromAddress(enabled: boolean, customerId: number, open: (licence: Licence) => void) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const [wanted, setWanted] = useState<number | null>(null);
  const raw = params.get(RENEW_PARAM);
  useEffect(() => {
    if (raw === null) return;
    const id = /^\d{1,10}$/.test(raw) ? Number(raw) : null;
    if (enabled && id) setWanted(id);
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(RENEW_PARAM);
        return next;
      },
      { replace: true },
    );
  }, [raw, enabled, setParams]);
  const licence = useQuery({ ...licenceQuery(customerId, wanted ?? 0), enabled: wanted !== null });
  useEffect(() => {
    if (wanted === null) return;
    if (licence.data) {
      // a licence of another customer is not renewed from this page
      if (licence.data.customerId === customerId) open(licence.data);
      else notify({ status: 'error', message: t('licences.modal.notFound') });
      setWanted(null);
    } else if (licence.isError) {
      notify({ status: 'error', message: t('licences.modal.notFound') });
      setWanted(null);
    }
  }, [wanted, licence.data, licence.isError, customerId, open, t]);
}

/**
 * Licences of the customer (spec 2 "Licences table"). The page renders it for the roles of
 * `accountSections` (never an end user); the columns follow the role's capabilities.
 */
export function LicencesSection({ customer }: { customer: Customer }) {
  const { t } = useTranslation();
  const locale = useLocale();
  // what the customer's policy says the user may do here; each row's actions follow its own `can`
  const details = customer.can.viewLicenceDetails;
  const download = customer.can.download;
  const manage = customer.can.addLicence;
  const { offset, setOffset } = usePageInAddress('licences-page', LICENCES_PAGE_LENGTH);
  const licences = useQuery({ ...licencesQuery(customer.id, offset), staleTime: FIRST_SCREEN_FRESH_MS });
  const [modal, setModal] = useState<ModalState>({ opened: false, licence: null, formKey: 0 });
  const [open] = useState(
    () => (licence: Licence | null) => setModal((m) => ({ opened: true, licence, formKey: m.formKey + 1 })),
  );
  useRenewFromAddress(manage, customer.id, open);
  const [customizing, setCustomizing] = useState<ModalState>({ opened: false, licence: null, formKey: 0 });
  const customize = (licence: Licence) => setCustomizing((m) => ({ opened: true, licence, formKey: m.formKey + 1 }));

  // where staff read a customer's latest downloads, the download analytics are a link away (for the
  // roles the capability table gives them to, as the home page's shortcut)
  const localize = useLocalize();
  const analytics = useProfile().data?.can.viewDownloadAnalytics === true;

  const rows = licences.data?.data ?? [];
  return (
    <AccountSection
      title={t('licences.title')}
      testId="licences-section"
      actions={
        (manage || analytics) && (
          <Group gap="sm" wrap="wrap">
            {analytics && (
              <Button component={Link} to={localize('/analytics')} variant="default" data-testid="licences-analytics">
                {t('catalogue.analytics')}
              </Button>
            )}
            {manage && (
              <Button leftSection={<PlusIcon size={16} />} onClick={() => open(null)} data-testid="licence-add">
                {t('licences.add')}
              </Button>
            )}
          </Group>
        )
      }
    >
      <Stack gap="sm" mt="sm">
        {licences.isPending && <DelayedLoader testId="licences-loader" />}
        {licences.isError && (
          <Alert color="red" role="alert" data-testid="licences-load-error">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{t('licences.loadError', { error: apiErrorText(licences.error, t) })}</Text>
              <Button size="compact-sm" variant="light" color="red" onClick={() => void licences.refetch()}>
                {t('app.retry')}
              </Button>
            </Stack>
          </Alert>
        )}
        {licences.isSuccess && rows.length === 0 && (
          <Text c="dimmed" data-testid="licences-empty">
            {t('licences.empty')}
          </Text>
        )}
        {rows.length > 0 && (
          <DataTable
            label={t('licences.table')}
            minWidth={details ? 880 : 640}
            className="licences-table"
            aria-busy={licences.isPlaceholderData}
            data-testid="licences-table"
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th className="licences-sticky">{t('licences.columns.id')}</Table.Th>
                <Table.Th>{t('licences.columns.product')}</Table.Th>
                <Table.Th>{t('licences.columns.validUntil')}</Table.Th>
                {details && <Table.Th>{t('licences.columns.latestDownload')}</Table.Th>}
                {details && <Table.Th>{t('licences.columns.accessLevel')}</Table.Th>}
                {download && <Table.Th>{t('licences.columns.download')}</Table.Th>}
                {manage && <Table.Th>{t('licences.columns.actions')}</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((licence) => (
                <Table.Tr key={licence.id} data-testid="licence-row" data-product={licence.productKey}>
                  <Table.Td className="licences-sticky">{licence.id}</Table.Td>
                  <Table.Td data-testid="licence-product">{productLabel(t, licence)}</Table.Td>
                  <Table.Td>
                    <span className="licences-valid-until">
                      <span data-testid="licence-end-date">{formatDayMonthYear(licence.endDate, locale)}</span>
                      <Badge
                        color={LICENCE_STATUS_COLOURS[licence.status]}
                        variant="light"
                        data-testid="licence-status"
                        data-status={licence.status}
                      >
                        {t(`licences.status.${licence.status}`)}
                      </Badge>
                    </span>
                  </Table.Td>
                  {details && (
                    <Table.Td data-testid="licence-latest-download">
                      {licence.latestDownload
                        ? formatLocalDayMonthYear(licence.latestDownload, locale)
                        : t('licences.never')}
                    </Table.Td>
                  )}
                  {details && (
                    <Table.Td data-testid="licence-access-level">
                      {t(`licences.accessLevels.${licence.accessLevel}`)}
                    </Table.Td>
                  )}
                  {download && (
                    <Table.Td>
                      <LicenceDownloadCell licence={licence} />
                    </Table.Td>
                  )}
                  {manage && (
                    <Table.Td>
                      <LicenceRowActions licence={licence} onRenew={open} onCustomize={customize} />
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </DataTable>
        )}
        {licences.data && (
          <Pagination
            offset={licences.data.offset}
            pageLength={LICENCES_PAGE_LENGTH}
            total={licences.data.total}
            totalCapped={licences.data.totalCapped}
            onChange={setOffset}
          />
        )}
      </Stack>
      {manage && (
        <FormModal
          opened={modal.opened}
          onClose={() => setModal((m) => ({ ...m, opened: false }))}
          size="lg"
          title={modal.licence ? t('licences.modal.renewTitle') : t('licences.modal.createTitle')}
          data-testid="licence-modal"
        >
          {modal.formKey > 0 && (
            <Suspense fallback={<DelayedLoader />}>
              <LicenceForm customerId={customer.id} licence={modal.licence} formKey={modal.formKey} />
            </Suspense>
          )}
        </FormModal>
      )}
      {manage && (
        <CustomizationModal
          opened={customizing.opened}
          customerName={customer.name}
          licence={customizing.licence}
          formKey={customizing.formKey}
          onClose={() => setCustomizing((m) => ({ ...m, opened: false }))}
        />
      )}
    </AccountSection>
  );
}
