import { Alert, Anchor, Paper, Stack, Text, Typography, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Markdown from 'react-markdown';
import { useConfig } from '../../app/session';
import { usePageTitle } from '../../app/title';
import { DelayedLoader } from '../../components/DelayedLoader';
import { PageHeader } from '../../components/PageHeader';
import { currentLocale } from '../../i18n';
import {
  documentLocale,
  externalDocumentUrl,
  type LegalDocument,
  loadBundledDocument,
  withoutLeadingTitle,
} from './documents';

async function fetchExternal(url: string): Promise<string> {
  const response = await fetch(url, { credentials: 'omit' });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.text();
}

export function LegalPage({ document }: { document: LegalDocument }) {
  const { t, i18n } = useTranslation();
  const locale = currentLocale(i18n.language);
  const config = useConfig();
  const title = t(`legal.${document}`);
  usePageTitle(title);
  const base = config.data?.legalBaseUrl ?? null;
  const externalUrl = base ? externalDocumentUrl(base, document, locale) : null;
  const content = useQuery({
    queryKey: ['legal', document, documentLocale(document, locale), externalUrl],
    queryFn: async () => {
      if (!externalUrl) return { markdown: await loadBundledDocument(document, locale), fallback: false };
      try {
        return { markdown: await fetchExternal(externalUrl), fallback: false };
      } catch {
        // The configured copy is out of reach (network, CSP); the shipped copy is better than nothing.
        return { markdown: await loadBundledDocument(document, locale), fallback: true };
      }
    },
    enabled: !config.isPending,
    staleTime: Number.POSITIVE_INFINITY,
  });

  return (
    <Stack gap="md" py="md" data-testid="legal-page">
      <PageHeader title={title} />
      {documentLocale(document, locale) !== locale && (
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
          <Typography lang={documentLocale(document, locale)} style={{ overflowWrap: 'anywhere' }}>
            <Markdown skipHtml>{withoutLeadingTitle(content.data.markdown)}</Markdown>
          </Typography>
        </Paper>
      )}
    </Stack>
  );
}
