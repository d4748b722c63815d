import { Alert, Checkbox, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../i18n/use-translation';
import type { Profile } from '../../../common/api/auth';
import type { NotificationSettings } from '../../../common/api/customers';
import type { MembershipSettings } from '../../../common/api/settings';
import { NOTIFICATION_SETTINGS, type NotificationSetting } from '../../../common/domain';
import { myMembershipsQuery } from '../../api/settings';
import { DelayedLoader } from '../../components/DelayedLoader';
import { apiErrorText } from '../../components/forms';
import { Pagination } from '../../components/Pagination';
import { usePageInAddress } from '../../components/use-searched-pages';

/** Blocks per page: as many as the profile lists accounts; more are reached page by page. */
const BLOCKS_PAGE_LENGTH = 50;

/** The flags changed on the page and not saved yet, by membership id. */
export type SettingsEdits = Record<number, Partial<NotificationSettings>>;

/** Spec 2 "Settings": who gets which blocks. Staff outside any customer get none. */
export function hasNotificationBlocks(profile: Pick<Profile, 'type' | 'accountsTotal'>): boolean {
  return (profile.type === 'accountExecutive' || profile.type === 'client') && profile.accountsTotal > 0;
}

/** A change of one flag: kept while it differs from the saved value, forgotten when set back. */
export function editFlag(
  edits: SettingsEdits,
  membership: Pick<MembershipSettings, 'membershipId' | 'settings'>,
  flag: NotificationSetting,
  value: boolean,
): SettingsEdits {
  const { [flag]: _previous, ...rest } = edits[membership.membershipId] ?? {};
  const next = value === membership.settings[flag] ? rest : { ...rest, [flag]: value };
  const { [membership.membershipId]: _block, ...others } = edits;
  return Object.keys(next).length ? { ...others, [membership.membershipId]: next } : others;
}

interface BlocksProps {
  profile: Profile;
  edits: SettingsEdits;
  onEdit: (membership: MembershipSettings, flag: NotificationSetting, value: boolean) => void;
}

/**
 * The notification checkboxes of spec 2 "Settings": an account executive has one block, for all
 * their customers (decision 029); a businessOwner and a technicalContact one block per customer.
 */
export function NotificationBlocks({ profile, edits, onEdit }: BlocksProps) {
  const { t } = useTranslation();
  const executive = profile.type === 'accountExecutive';
  const pageLength = executive ? 1 : BLOCKS_PAGE_LENGTH;
  const { offset, setOffset } = usePageInAddress('page', pageLength);
  const memberships = useQuery({ ...myMembershipsQuery(offset, pageLength), placeholderData: keepPreviousData });

  if (memberships.isPending) return <DelayedLoader />;
  if (memberships.isError) {
    return (
      <Alert color="red" role="alert" data-testid="settings-notifications-error">
        {t('notificationSettings.loadError', { error: apiErrorText(memberships.error, t) })}
      </Alert>
    );
  }
  const blocks = memberships.data.data.filter((m) =>
    executive ? m.role === 'accountExecutive' : m.role === 'businessOwner' || m.role === 'technicalContact',
  );
  if (blocks.length === 0) return <Text c="dimmed">{t('notificationSettings.none')}</Text>;
  return (
    <Stack gap="md">
      <Text size="sm">{t('notificationSettings.intro')}</Text>
      {blocks.map((membership) => (
        <Block
          key={membership.membershipId}
          title={
            executive
              ? t('notificationSettings.allCustomers')
              : t('notificationSettings.forCustomer', {
                  customer: membership.customerName,
                  role: t(`roles.${membership.role}`),
                })
          }
          membership={membership}
          edits={edits[membership.membershipId] ?? {}}
          onEdit={onEdit}
        />
      ))}
      {!executive && (
        <Pagination
          offset={memberships.data.offset}
          pageLength={pageLength}
          total={memberships.data.total}
          totalCapped={memberships.data.totalCapped}
          onChange={setOffset}
        />
      )}
    </Stack>
  );
}

function Block({
  title,
  membership,
  edits,
  onEdit,
}: {
  title: string;
  membership: MembershipSettings;
  edits: Partial<NotificationSettings>;
  onEdit: BlocksProps['onEdit'];
}) {
  const { t } = useTranslation();
  const titleId = `notification-block-${membership.membershipId}`;
  return (
    <Paper
      withBorder
      p="md"
      radius="sm"
      component="fieldset"
      aria-labelledby={titleId}
      data-testid="settings-notification-block"
      style={{ minWidth: 0 }}
    >
      <Title order={3} size="h5" mb="sm" id={titleId} style={{ overflowWrap: 'anywhere' }}>
        {title}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
        {NOTIFICATION_SETTINGS.map((flag) => (
          <Checkbox
            key={flag}
            label={t(`notificationSettings.flags.${flag}`)}
            checked={edits[flag] ?? membership.settings[flag]}
            // read from the event now, never later in a state updater
            onChange={(event) => onEdit(membership, flag, event.currentTarget.checked)}
            data-flag={flag}
          />
        ))}
      </SimpleGrid>
    </Paper>
  );
}
