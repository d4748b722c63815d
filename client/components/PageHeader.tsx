import { Group, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

interface PageHeaderProps {
  title: ReactNode;
  /** a line under the title */
  description?: ReactNode;
  /** buttons on the right (Add, Edit); they wrap under the title on a narrow screen */
  actions?: ReactNode;
}

/** The one page header: the page's h1, an optional line under it, and its actions. */
export function PageHeader({ title, description, actions }: PageHeaderProps) {
  return (
    <Group justify="space-between" align="flex-start" gap="sm" data-testid="page-header">
      <div style={{ minWidth: 0, flex: '1 1 16rem' }}>
        <Title order={1} style={{ overflowWrap: 'anywhere' }}>
          {title}
        </Title>
        {description && <Text mt={4}>{description}</Text>}
      </div>
      {actions && (
        <Group gap="xs" wrap="wrap">
          {actions}
        </Group>
      )}
    </Group>
  );
}
