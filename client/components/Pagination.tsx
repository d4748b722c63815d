import { ActionIcon, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { offsetOfPage, pageInfo } from '../../common/pagination';
import { ChevronLeftIcon, ChevronRightIcon } from './icons';

export interface PaginationProps {
  offset: number;
  pageLength: number;
  total: number;
  /** the list has more than `total` entries (its count stopped there): next stays open */
  capped?: boolean;
  onChange: (offset: number) => void;
}

/** Spec 2 "Pagination control": page X of Y with back and next, only when there is more than one page. */
export function Pagination({ offset, pageLength, total, capped = false, onChange }: PaginationProps) {
  const { t } = useTranslation();
  const info = pageInfo(offset, pageLength, total, capped);
  if (!info.visible) return null;
  return (
    <Group component="nav" aria-label={t('pagination.label')} gap="xs" data-testid="pagination">
      <ActionIcon
        variant="default"
        aria-label={t('pagination.previous')}
        disabled={!info.canGoBack}
        onClick={() => onChange(offsetOfPage(info.page - 1, pageLength))}
      >
        <ChevronLeftIcon />
      </ActionIcon>
      <Text size="sm" aria-live="polite">
        {t(capped ? 'pagination.pageOfMore' : 'pagination.page', { page: info.page + 1, pageCount: info.pageCount })}
      </Text>
      <ActionIcon
        variant="default"
        aria-label={t('pagination.next')}
        disabled={!info.canGoNext}
        onClick={() => onChange(offsetOfPage(info.page + 1, pageLength))}
      >
        <ChevronRightIcon />
      </ActionIcon>
    </Group>
  );
}
