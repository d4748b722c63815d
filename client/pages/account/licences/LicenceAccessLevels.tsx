import { useQuery } from '@tanstack/react-query';
import { Fragment } from 'react';
import { useTranslation } from '../../../i18n/use-translation';
import { FIRST_SCREEN_FRESH_MS } from '../../../api/customer-page';
import { licencesQuery } from '../../../api/licences';
import { productLabel } from './product-label';

/**
 * The header's access levels (spec 2, the customer's own contacts of a sales-led customer): what
 * each licence lets them download. The first page of licences, the one the licences section shows
 * first (one request for both).
 */
export function LicenceAccessLevels({ customerId }: { customerId: number }) {
  const { t } = useTranslation();
  const licences = useQuery({ ...licencesQuery(customerId, 0), staleTime: FIRST_SCREEN_FRESH_MS });
  const rows = licences.data?.data ?? [];
  if (rows.length === 0) return null;
  return (
    <span aria-label={t('licences.headerLabel')} role="group" data-testid="licence-access-levels">
      {rows.map((licence, index) => (
        <Fragment key={licence.id}>
          {index > 0 && ' · '}
          <span data-testid="licence-access-level">
            {t('licences.headerAccessLevel', {
              product: productLabel(t, licence),
              level: t(`licences.accessLevels.${licence.accessLevel}`),
            })}
          </span>
        </Fragment>
      ))}
    </span>
  );
}
