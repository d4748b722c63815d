import { Typography } from '@mantine/core';
import type { Locale } from '../../../common/roles';

/** A legal document as the server rendered it, in the typography of the portal's texts. */
export function LegalHtml({ html, language }: { html: string; language: Locale }) {
  return (
    <Typography lang={language} style={{ overflowWrap: 'anywhere' }}>
      {/* Safe HTML: server/markdown.ts renders it with the source's raw HTML shown as text and only
          http(s), mailto and relative links (docs/decisions/040). */}
      <div dangerouslySetInnerHTML={{ __html: html }} />
    </Typography>
  );
}
