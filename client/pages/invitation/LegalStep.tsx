import { Alert, Box, Button, Group, Stack, Text, Title } from '@mantine/core';
import { type ReactNode, useEffect, useRef } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import type { LegalDocument } from '../../../common/api/legal';
import { DelayedLoader } from '../../components/DelayedLoader';
import { LegalHtml } from '../legal/LegalHtml';
import { useLegalDocument } from '../legal/use-legal-document';

/**
 * The legal steps a new account goes through (spec 2): the EULA, then the GDPR notice, in the
 * invitation flow and in the self-service sign-up's confirmation alike.
 */

/** Spec 9: the legal text scrollers of the invitation and sign-up flows are 320 px high. */
export const LEGAL_SCROLLER_HEIGHT = 320;

/** The step's heading takes the focus when the step opens, so keyboard and screen-reader users follow. */
export function StepHeading({ children, focus }: { children: ReactNode; focus: boolean }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focus) ref.current?.focus();
  }, [focus]);
  return (
    <Title order={2} size="h3" ref={ref} tabIndex={-1} style={{ outline: 'none' }}>
      {children}
    </Title>
  );
}

/** A legal document in a 320 px scroller that the keyboard can scroll too, with accept and back. */
export function LegalStep({
  document,
  title,
  onAccept,
  onBack,
}: {
  document: LegalDocument;
  title: string;
  onAccept: () => void;
  onBack: () => void;
}) {
  const { t } = useTranslation();
  const { content, language } = useLegalDocument(document);
  return (
    <Stack gap="md">
      <StepHeading focus>{title}</StepHeading>
      <Text size="sm">{t('invitation.legalIntro')}</Text>
      <Box
        p="md"
        tabIndex={0}
        role="region"
        aria-label={title}
        data-testid="legal-scroller"
        style={{
          height: `${LEGAL_SCROLLER_HEIGHT}px`,
          overflowY: 'auto',
          border: '1px solid var(--mantine-color-default-border)',
          borderRadius: 4,
        }}
      >
        {content.isPending && <DelayedLoader />}
        {content.isError && (
          <Alert color="red" role="alert">
            {t('legal.loadError')}
          </Alert>
        )}
        {content.data !== undefined && <LegalHtml html={content.data.html} language={language} />}
      </Box>
      <Group justify="space-between">
        <Button variant="default" onClick={onBack}>
          {t('invitation.back')}
        </Button>
        {/* Accepting a text that could not be shown would accept nothing. */}
        <Button onClick={onAccept} disabled={content.data === undefined} data-testid="invitation-accept-legal">
          {t('invitation.accept')}
        </Button>
      </Group>
    </Stack>
  );
}
