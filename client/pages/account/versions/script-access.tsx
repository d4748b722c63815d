import { Button, Code, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { secretDownloadPath } from '../../../../common/api/catalogue';
import type { Licence } from '../../../../common/api/licences';
import type { Platform } from '../../../../common/domain';
import { allowsDownload } from '../../../../common/licence-status';
import { versionFeedPath } from '../../../../common/api/catalogue';
import { MASKED_SECRET, maskSecret } from '../../../../common/release-pages';
import { browser } from '../../../api/downloads';
import { useTranslation } from '../../../i18n/use-translation';
import { copyWithNotice } from '../../../components/copy-with-notice';

/**
 * What a licence's download secret opens to a script (docs/decisions/081): the secret itself, the
 * versions' files, checksums and feed. The screen shows the secret masked until the reader reveals
 * it; what is copied carries it.
 */
export interface ScriptAccess {
  productKey: string;
  secret: string;
  /** the portal's origin, that the copied addresses are absolute */
  origin: string;
  revealed: boolean;
}

/**
 * The licence's script access and its reveal switch: none for a role that does not download or a
 * licence past its grace period (its secret serves nothing then).
 */
export function useScriptAccess(licence: Licence, canDownload: boolean) {
  const [revealed, setRevealed] = useState(false);
  const secret = canDownload && allowsDownload(licence.status) ? licence.downloadSecret : null;
  const access: ScriptAccess | null = secret
    ? { productKey: licence.productKey, secret, origin: browser.origin(), revealed }
    : null;
  return { access, revealed, setRevealed };
}

/** An absolute address of the portal that carries the secret, and how it is shown. */
export function secretAddress(access: ScriptAccess, path: string) {
  const url = access.origin + path;
  return { url, shown: access.revealed ? url : maskSecret(url, access.secret) };
}

interface SecretLineProps {
  label: string;
  /** the text copied, secret included */
  value: string;
  /** the text shown */
  shown: string;
  hint?: string;
  copyLabel: string;
  testId: string;
}

/** A labelled address or secret, shown as the screen may show it, with its copy button. */
export function SecretLine({ label, value, shown, hint, copyLabel, testId }: SecretLineProps) {
  const { t } = useTranslation();
  return (
    <div className="versions-secret-line" data-testid={testId}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Code className="versions-code" data-testid={`${testId}-value`}>
          {shown}
        </Code>
        <Button
          size="compact-sm"
          variant="subtle"
          onClick={() => void copyWithNotice(value, t('releases.script.copied'), t)}
          aria-label={copyLabel}
          data-testid={`${testId}-copy`}
        >
          {t('releases.copy')}
        </Button>
      </Group>
    </div>
  );
}

interface ScriptAccessPanelProps {
  access: ScriptAccess;
  productName: string;
  /** the platforms the product's versions have files for: a `latest` address each */
  platforms: Platform[];
  onReveal: (revealed: boolean) => void;
  /** its heading's level: 3 under the versions section's h2, 2 on a page of its own */
  headingOrder?: 2 | 3;
}

/**
 * The licence's download secret, its feed of new versions and the `latest` address of each
 * platform, for the reader's scripts.
 */
export function ScriptAccessPanel({
  access,
  productName,
  platforms,
  onReveal,
  headingOrder = 3,
}: ScriptAccessPanelProps) {
  const { t } = useTranslation();
  const secretShown = access.revealed ? access.secret : MASKED_SECRET;
  const feed = secretAddress(access, versionFeedPath(access.productKey, access.secret));
  return (
    <Stack gap="xs" className="versions-script" data-testid="script-access">
      <Group justify="space-between" gap="xs">
        <Title order={headingOrder} size="h5">
          {t('releases.script.title')}
        </Title>
        <Button
          size="compact-sm"
          variant="default"
          aria-pressed={access.revealed}
          onClick={() => onReveal(!access.revealed)}
          data-testid="script-reveal"
        >
          {access.revealed ? t('releases.script.hide') : t('releases.script.reveal')}
        </Button>
      </Group>
      <Text size="xs" c="dimmed">
        {t('releases.script.intro')}
      </Text>
      <SecretLine
        label={t('releases.script.secret')}
        value={access.secret}
        shown={secretShown}
        copyLabel={t('releases.script.copySecretLabel', { product: productName })}
        testId="script-secret"
      />
      <SecretLine
        label={t('releases.script.feed')}
        value={feed.url}
        shown={feed.shown}
        copyLabel={t('releases.script.copyFeedLabel', { product: productName })}
        testId="script-feed"
      />
      {platforms.map((platform) => {
        const latest = secretAddress(access, secretDownloadPath(platform, access.productKey, 'latest', access.secret));
        const name = t(`downloads.platforms.${platform}`);
        return (
          <SecretLine
            key={platform}
            label={t('releases.script.latest', { platform: name })}
            hint={t('releases.script.latestHint')}
            value={latest.url}
            shown={latest.shown}
            copyLabel={t('releases.script.copyLatestLabel', { product: productName, platform: name })}
            testId={`script-latest-${platform}`}
          />
        );
      })}
    </Stack>
  );
}
