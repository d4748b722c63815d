import { Anchor, List, Paper, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { useTranslation } from '../../i18n/use-translation';
import { Link } from 'react-router';
import { LEGAL_DOCUMENTS } from '../../../common/api/legal';
import { useLocalize } from '../../app/locale';
import { useConfig } from '../../app/session';
import { usePageTitle } from '../../app/title';
import { PageHeader } from '../../components/PageHeader';

export function AboutPage() {
  const { t } = useTranslation();
  const localize = useLocalize();
  usePageTitle(t('about.title'));
  const config = useConfig().data;
  return (
    <Stack gap="lg" py="md">
      <PageHeader title={t('about.title')} description={t('about.intro')} />
      <Paper withBorder p="lg" radius="md">
        <Title order={2} size="h3" mb="sm">
          {t('about.contact')}
        </Title>
        {config?.contactEmail && (
          <Text>
            {t('about.contactText')}{' '}
            <Anchor href={`mailto:${config.contactEmail}`} data-testid="about-contact">
              {config.contactEmail}
            </Anchor>
          </Text>
        )}
        <List mt="sm">
          {config?.supportUrl && (
            <List.Item>
              <Anchor href={config.supportUrl} target="_blank" rel="noopener noreferrer">
                {t('about.support')}
                <VisuallyHidden> {t('app.newTab')}</VisuallyHidden>
              </Anchor>
            </List.Item>
          )}
          {config?.academyUrl && (
            <List.Item>
              <Anchor href={config.academyUrl} target="_blank" rel="noopener noreferrer">
                {t('about.academy')}
                <VisuallyHidden> {t('app.newTab')}</VisuallyHidden>
              </Anchor>
            </List.Item>
          )}
        </List>
      </Paper>
      <Paper withBorder p="lg" radius="md">
        <Title order={2} size="h3" mb="sm">
          {t('about.legal')}
        </Title>
        <List>
          {LEGAL_DOCUMENTS.map((document) => (
            <List.Item key={document}>
              <Anchor component={Link} to={localize(`/${document}`)}>
                {t(`legal.${document}`)}
              </Anchor>
            </List.Item>
          ))}
        </List>
      </Paper>
    </Stack>
  );
}
