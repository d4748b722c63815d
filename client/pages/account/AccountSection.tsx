import { Paper, Title } from '@mantine/core';
import type { ReactNode } from 'react';

interface AccountSectionProps {
  title: ReactNode;
  /** names the section for tests and the accessibility journey */
  testId: string;
  /** buttons beside the title (Add) */
  actions?: ReactNode;
  children?: ReactNode;
}

/**
 * One section of the customer page, under its h2. Not a named landmark: the tables inside are named
 * scrolling regions with the section's title (DataTable), and two landmarks of one name are ambiguous.
 */
export function AccountSection({ title, testId, actions, children }: AccountSectionProps) {
  return (
    <Paper component="section" withBorder p="md" radius="md" data-testid={testId}>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 'var(--mantine-spacing-xs)', alignItems: 'center' }}>
        <Title order={2} size="h3" style={{ flex: '1 1 12rem', overflowWrap: 'anywhere' }}>
          {title}
        </Title>
        {actions}
      </div>
      {children}
    </Paper>
  );
}
