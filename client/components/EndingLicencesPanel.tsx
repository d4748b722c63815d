import { Anchor, Badge, Card, Group, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../i18n/use-translation';
import { Link } from 'react-router';
import type { Profile } from '../../common/api/auth';
import { ENDING_LICENCES_DAYS } from '../../common/api/licences';
import { formatDayMonthYear } from '../../common/format';
import { LICENCE_STATUS_COLOURS } from '../../common/licence-status';
import { ENDING_LICENCES_PAGE_LENGTH, endingLicencesQuery } from '../api/ending-licences';
import { useLocale, useLocalize } from '../app/locale';
import { DelayedLoader } from './DelayedLoader';
import { LoadError } from './LoadError';
import { Pagination } from './Pagination';
import { isStale, usePageInAddress } from './use-searched-pages';

/**
 * Whether the user is shown the licences ending soon: those who renew licences (admins, product
 * managers, account executives). The server answers the others with nothing, and an empty panel
 * would only take room on a support engineer's home.
 */
export function seesEndingLicences(profile: Pick<Profile, 'can'> | null | undefined): boolean {
  return profile?.can.renewLicences === true;
}

/**
 * The licences ending in the next 90 days, soonest first, for the people who sell: each with its
 * customer, product and end date in its status colour, and a link that opens its renewal on the
 * customer page. The server decides whose licences they are (every customer for admins and product
 * managers, an account executive's own).
 */
export function EndingLicencesPanel() {
  const { t } = useTranslation();
  const locale = useLocale();
  const localize = useLocalize();
  const { offset, setOffset } = usePageInAddress('ending-page', ENDING_LICENCES_PAGE_LENGTH);
  const ending = useQuery(endingLicencesQuery(offset));
  const list = ending.data;
  const stale = isStale(ending);

  return (
    <Card
      component="section"
      withBorder
      radius="md"
      padding="md"
      aria-labelledby="ending-licences-title"
      data-testid="ending-licences"
    >
      <Stack gap="sm">
        <Title order={2} size="h3" id="ending-licences-title">
          {t('endingLicences.title', { days: ENDING_LICENCES_DAYS })}
        </Title>
        {(ending.isPending || stale) && <DelayedLoader testId="ending-licences-loader" />}
        <LoadError query={ending} messageKey="endingLicences.loadError" testId="ending-licences-error" />
        {list && list.data.length === 0 && (
          <Text role="status" data-testid="ending-licences-empty">
            {t('endingLicences.empty', { days: ENDING_LICENCES_DAYS })}
          </Text>
        )}
        {list && list.data.length > 0 && (
          <Stack
            gap={0}
            component="ul"
            p={0}
            m={0}
            style={{ listStyle: 'none', opacity: stale ? 0.5 : undefined }}
            aria-busy={ending.isFetching}
          >
            {list.data.map((licence) => (
              <Group
                component="li"
                key={licence.id}
                justify="space-between"
                align="center"
                gap="xs"
                py="xs"
                wrap="wrap"
                style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
                data-testid="ending-licence"
              >
                <div style={{ minWidth: 0, flex: '1 1 14rem' }}>
                  <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {licence.customerName}
                  </Text>
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {licence.productName}
                  </Text>
                </div>
                <Group gap="sm" wrap="nowrap">
                  <Badge
                    variant="light"
                    tt="none"
                    size="lg"
                    color={LICENCE_STATUS_COLOURS[licence.status]}
                    data-status={licence.status}
                    data-testid="ending-licence-date"
                  >
                    <time dateTime={licence.endDate}>{formatDayMonthYear(licence.endDate, locale)}</time>
                    <VisuallyHidden>{t(`endingLicences.status.${licence.status}`)}</VisuallyHidden>
                  </Badge>
                  <Anchor
                    component={Link}
                    to={localize(`/accounts/${licence.customerId}?renew=${licence.id}`)}
                    aria-label={t('endingLicences.renewLabel', {
                      customer: licence.customerName,
                      product: licence.productName,
                    })}
                    data-testid="ending-licence-renew"
                  >
                    {t('endingLicences.renew')}
                  </Anchor>
                </Group>
              </Group>
            ))}
          </Stack>
        )}
        {list && (
          <Pagination
            offset={list.offset}
            pageLength={ENDING_LICENCES_PAGE_LENGTH}
            total={list.total}
            totalCapped={list.totalCapped}
            onChange={setOffset}
          />
        )}
      </Stack>
    </Card>
  );
}
