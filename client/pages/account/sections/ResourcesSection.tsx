import { Anchor, Group, VisuallyHidden } from '@mantine/core';
import { useTranslation } from '../../../i18n/use-translation';
import type { Customer } from '../../../../common/api/customers';
import { useConfig } from '../../../app/session';
import { AccountSection } from '../AccountSection';

/** Resources and support (spec 2): the support centre and the academy, configured, in a new tab. */
export function ResourcesSection(_props: { customer: Customer }) {
  const { t } = useTranslation();
  const config = useConfig().data;
  if (!config) return null;
  const links = [
    { href: config.supportUrl, label: t('account.resources.support'), testId: 'resources-support' },
    { href: config.academyUrl, label: t('account.resources.academy'), testId: 'resources-academy' },
  ];
  return (
    <AccountSection title={t('account.resources.title')} testId="resources-section">
      <Group gap="lg" mt="xs">
        {links.map((link) => (
          <Anchor
            key={link.testId}
            href={link.href}
            target="_blank"
            rel="noopener noreferrer"
            data-testid={link.testId}
          >
            {link.label}
            <VisuallyHidden> {t('app.newTab')}</VisuallyHidden>
          </Anchor>
        ))}
      </Group>
    </AccountSection>
  );
}
