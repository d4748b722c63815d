import { Group, NativeSelect } from '@mantine/core';
import { useTranslation } from '../../../i18n/use-translation';
import { SearchBox } from '../../../components/use-searched-pages';

/** The badge colour of a member's or an invitation's status. */
export const TEAM_STATUS_COLORS = { enabled: 'teal', disabled: 'gray', pending: 'blue', expired: 'orange' } as const;

interface TeamListControlsProps<Sort extends string> {
  /** `members` or `invitations`: the test ids and the labels of the list */
  list: 'members' | 'invitations';
  search: string;
  onSearch: (value: string) => void;
  sort: Sort;
  sorts: readonly Sort[];
  onSort: (sort: Sort) => void;
}

/** The search on name or e-mail and the order of one of the customer's team lists. */
export function TeamListControls<Sort extends string>({
  list,
  search,
  onSearch,
  sort,
  sorts,
  onSort,
}: TeamListControlsProps<Sort>) {
  const { t } = useTranslation();
  return (
    <Group align="flex-end" gap="sm" wrap="wrap">
      <SearchBox
        label={t(`members.search.${list}`)}
        placeholder={t('members.search.placeholder')}
        value={search}
        onChange={onSearch}
        testId={`${list}-search`}
      />
      <NativeSelect
        label={t('members.sort')}
        value={sort}
        onChange={(event) => onSort(sorts.find((s) => s === event.currentTarget.value) ?? sorts[0])}
        data={sorts.map((value) => ({ value, label: t(`members.sorts.${value}`) }))}
        data-testid={`${list}-sort`}
      />
    </Group>
  );
}
