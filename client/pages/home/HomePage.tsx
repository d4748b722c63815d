import { Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from '../../i18n/use-translation';
import { Link } from 'react-router';
import { useLocalize } from '../../app/locale';
import { homeShortcuts } from '../../app/navigation';
import { useProfile } from '../../app/session';
import { usePageTitle } from '../../app/title';
import { EndingLicencesPanel, seesEndingLicences } from '../../components/EndingLicencesPanel';
import { PageHeader } from '../../components/PageHeader';

/**
 * Spec 2: the staff home, a welcome with the full name and the screens the role works with; for those
 * who renew licences, the licences ending soon.
 */
export function HomePage() {
  const { t } = useTranslation();
  const localize = useLocalize();
  const profile = useProfile().data;
  usePageTitle(t('home.title'));
  const shortcuts = profile ? homeShortcuts(profile) : [];
  return (
    <Stack gap="lg" py="md">
      <PageHeader
        title={t('home.welcome', { fullName: profile?.fullName ?? '' })}
        description={profile ? t('home.intro', { role: t(`roles.${profile.type}`) }) : undefined}
      />
      {seesEndingLicences(profile) && <EndingLicencesPanel />}
      <section aria-labelledby="home-shortcuts">
        <Title order={2} size="h3" mb="sm" id="home-shortcuts">
          {t('home.shortcutsTitle')}
        </Title>
        <SimpleGrid
          cols={{ base: 1, sm: 2, md: 3 }}
          spacing="md"
          component="ul"
          p={0}
          m={0}
          style={{ listStyle: 'none' }}
        >
          {shortcuts.map((shortcut) => (
            <li key={shortcut.key}>
              <Card
                component={Link}
                to={localize(shortcut.to)}
                withBorder
                radius="md"
                padding="lg"
                h="100%"
                className="link-card"
                data-testid={`home-shortcut-${shortcut.key}`}
              >
                <Text fw={700}>{t(`home.shortcuts.${shortcut.key}.title`)}</Text>
                <Text size="sm" mt={4}>
                  {t(`home.shortcuts.${shortcut.key}.text`)}
                </Text>
              </Card>
            </li>
          ))}
        </SimpleGrid>
      </section>
    </Stack>
  );
}
