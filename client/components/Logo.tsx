import { Anchor, VisuallyHidden } from '@mantine/core';
import { useTranslation } from '../i18n/use-translation';
import { Link } from 'react-router';
import { LogoMark } from './LogoMark';

/** The mark and the portal's name, as the top bar's first link; on a phone the name is only spoken. */
export function BrandLink({ to, compact = false }: { to: string; compact?: boolean }) {
  const { t } = useTranslation();
  return (
    <Anchor
      component={Link}
      to={to}
      fw={700}
      size="lg"
      underline="never"
      data-testid="nav-brand"
      style={{ display: 'inline-flex', alignItems: 'center', gap: 8, flexShrink: 0, whiteSpace: 'nowrap' }}
    >
      <LogoMark />
      {compact ? <VisuallyHidden>{t('app.name')}</VisuallyHidden> : t('app.name')}
    </Anchor>
  );
}
