import { Paper, Title } from '@mantine/core';
import { type ReactNode, useId } from 'react';

export interface AccountSectionProps {
  title: ReactNode;
  /** names the section for tests and the accessibility journey */
  testId: string;
  /** buttons beside the title (Add) */
  actions?: ReactNode;
  children?: ReactNode;
}

/** One section of the customer page: a region named by its h2. */
export function AccountSection({ title, testId, actions, children }: AccountSectionProps) {
  const headingId = useId();
  return (
    <Paper component="section" withBorder p="md" radius="md" aria-labelledby={headingId} data-testid={testId}>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 'var(--mantine-spacing-xs)', alignItems: 'center' }}>
        <Title order={2} size="h3" id={headingId} style={{ flex: '1 1 12rem', overflowWrap: 'anywhere' }}>
          {title}
        </Title>
        {actions}
      </div>
      {children}
    </Paper>
  );
}
