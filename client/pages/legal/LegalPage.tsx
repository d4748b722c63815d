import { Alert, Anchor, Paper, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useTranslation } from '../../i18n/use-translation';
import { usePageTitle } from '../../app/title';
import { DelayedLoader } from '../../components/DelayedLoader';
import { PageHeader } from '../../components/PageHeader';
import type { LegalDocument } from '../../../common/api/legal';
import { LegalHtml } from './LegalHtml';
import { useLegalDocument } from './use-legal-document';

export function LegalPage({ document }: { document: LegalDocument }) {
  const { t } = useTranslation();
  const title = t(`legal.${document}`);
  usePageTitle(title);
  const { content, locale, externalUrl, language } = useLegalDocument(document);

  return (
    <Stack gap="md" py="md" data-testid="legal-page">
      <PageHeader title={title} />
      {language !== locale && (
        <Text size="sm" c="dimmed">
          {t('legal.englishOnly')}
        </Text>
      )}
      {content.isPending && <DelayedLoader />}
      {content.isError && (
        <Alert color="red" role="alert">
          {t('legal.loadError')}
        </Alert>
      )}
      {content.data?.fallback && externalUrl && (
        <Text size="sm" c="dimmed">
          <Anchor href={externalUrl} target="_blank" rel="noopener noreferrer">
            {t('legal.openExternal')}
            <VisuallyHidden> {t('app.newTab')}</VisuallyHidden>
          </Anchor>
        </Text>
      )}
      {content.data !== undefined && (
        // The whole document in the page's own flow: the 320 px scroller of spec 9 is for the EULA and
        // GDPR steps of the invitation and sign-up flows, not for reading a policy.
        <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }} data-testid="legal-document">
          <LegalHtml html={content.data.html} language={language} />
        </Paper>
      )}
    </Stack>
  );
}
