import { Alert, Anchor, Paper, ScrollArea, Stack, Text, Title, Typography, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Markdown from 'react-markdown';
import { useConfig } from '../../app/session';
import { usePageTitle } from '../../app/title';
import { DelayedLoader } from '../../components/DelayedLoader';
import { currentLocale } from '../../i18n';
import {
  documentLocale,
  externalDocumentUrl,
  type LegalDocument,
  loadBundledDocument,
  withoutLeadingTitle,
} from './documents';

/** Spec 9: legal texts sit in a 320 px scroller. */
const SCROLLER_HEIGHT = 320;

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
      <Title order={1}>{title}</Title>
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
        <Paper withBorder radius="md">
          {/* Focusable, so the text can be scrolled with the keyboard. */}
          <ScrollArea
            h={SCROLLER_HEIGHT}
            p="md"
            type="auto"
            data-testid="legal-scroller"
            viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': t('legal.scroller', { title }) }}
          >
            <Typography lang={documentLocale(document, locale)}>
              <Markdown skipHtml>{withoutLeadingTitle(content.data.markdown)}</Markdown>
            </Typography>
          </ScrollArea>
        </Paper>
      )}
    </Stack>
  );
}
