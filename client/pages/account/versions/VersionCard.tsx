import { Badge, Button, Code, Group, Paper, Spoiler, Stack, Text, Title } from '@mantine/core';
import { useId, useState } from 'react';
import { useTranslation } from '../../../i18n/use-translation';
import { secretDownloadPath, secretSumsPath, type Artifact, type Version } from '../../../../common/api/catalogue';
import type { AccessLevel } from '../../../../common/domain';
import { downloadCommands, type ReleaseBadge, releaseBadges } from '../../../../common/release-pages';
import { useLocale } from '../../../app/locale';
import { fileSize } from '../../../components/file-size';
import { copyWithNotice } from '../../../components/copy-with-notice';
import { type ScriptAccess, SecretLine, secretAddress } from './script-access';
import type { useArtifactDownload } from './use-artifact-download';
import './versions.css';

const BADGE_COLOURS: Record<ReleaseBadge, string> = {
  latest: 'green',
  preRelease: 'orange',
  maintenance: 'blue',
  endOfLife: 'gray',
};

/** Notes taller than this are folded under "Show all notes" (the release pages' lists). */
const FOLDED_NOTES_HEIGHT = 160;

interface VersionCardProps {
  version: Version;
  /** null for roles without `download`: the artifacts are listed without their buttons */
  downloads: ReturnType<typeof useArtifactDownload> | null;
  /** the licence's secret for the commands and checksums; null when it serves nothing to this reader */
  script?: ScriptAccess | null;
  /** whose "Latest" it shows: the licence's access level; null for every level (staff, no licence) */
  viewerLevel: AccessLevel | null;
  /** whether long notes are folded (a list); a page of notes to read shows them whole */
  foldNotes?: boolean;
  /** its heading's level: 3 under a section's h2 of the customer page, 2 on a page of its own */
  headingOrder?: 2 | 3;
}

/**
 * One released version (docs/decisions/041, 081): its number, title, badges and release day, the
 * notes the server rendered (sanitised there, server/markdown.ts), and per platform its file, size
 * and checksum, a download and a copy-URL button, and the commands a script fetches it with.
 */
export function VersionCard({
  version,
  downloads,
  script = null,
  viewerLevel,
  foldNotes = true,
  headingOrder = 3,
}: VersionCardProps) {
  const { t } = useTranslation();
  const name = `${version.productName} ${version.semVer}`;
  const notes = version.descriptionHtml && (
    <div
      className="versions-description"
      data-testid="version-description"
      // rendered and sanitised by the server: no raw HTML, no script links
      dangerouslySetInnerHTML={{ __html: version.descriptionHtml }}
    />
  );
  const sums =
    script &&
    version.artifacts.length > 0 &&
    secretAddress(script, secretSumsPath(version.productKey, version.semVer, script.secret));
  return (
    <Paper
      component="article"
      withBorder
      p="sm"
      radius="sm"
      aria-labelledby={`version-${version.id}`}
      tabIndex={-1}
      data-testid="version-card"
      data-semver={version.semVer}
    >
      <Stack gap="xs">
        <Group gap="xs" wrap="wrap" align="baseline">
          <Title order={headingOrder} size="h4" id={`version-${version.id}`} data-testid="version-semver">
            {version.semVer}
          </Title>
          <Text fw={500} className="versions-title">
            {version.title}
          </Text>
          {releaseBadges(version, viewerLevel).map((badge) => (
            <Badge
              key={badge}
              color={BADGE_COLOURS[badge]}
              variant={badge === 'latest' ? 'filled' : 'light'}
              data-testid="version-badge"
              data-badge={badge}
            >
              {t(`releases.badges.${badge}`, { type: t(`downloads.types.${version.type}`) })}
            </Badge>
          ))}
          {version.releaseDate && (
            <Text size="sm" c="dimmed" data-testid="version-release-date">
              {t('downloads.released', { date: version.releaseDate })}
            </Text>
          )}
        </Group>
        {notes &&
          (foldNotes ? (
            <Spoiler
              maxHeight={FOLDED_NOTES_HEIGHT}
              showLabel={t('releases.notes.more')}
              hideLabel={t('releases.notes.less')}
              showAriaLabel={t('releases.notes.moreLabel', { version: name })}
              hideAriaLabel={t('releases.notes.lessLabel', { version: name })}
              className="versions-notes"
              // each version's notes are a region of their own: named after it, so that they differ
              attributes={{ content: { 'aria-label': t('releases.notes.region', { version: name }) } }}
              data-testid="version-notes"
            >
              {notes}
            </Spoiler>
          ) : (
            notes
          ))}
        {version.artifacts.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="version-no-artifact">
            {t('downloads.noArtifact')}
          </Text>
        ) : (
          <ul className="versions-artifacts" aria-label={t('downloads.artifactsLabel', { version: name })}>
            {version.artifacts.map((artifact) => (
              <ArtifactItem
                key={artifact.id}
                version={version}
                artifact={artifact}
                downloads={downloads}
                script={script}
              />
            ))}
          </ul>
        )}
        {sums && (
          <SecretLine
            label={t('releases.script.sums')}
            value={sums.url}
            shown={sums.shown}
            copyLabel={t('releases.script.copySumsLabel', { version: name })}
            testId="version-sums"
          />
        )}
      </Stack>
    </Paper>
  );
}

interface ArtifactItemProps {
  version: Version;
  artifact: Artifact;
  downloads: VersionCardProps['downloads'];
  script: ScriptAccess | null;
}

/** One file of a version: what it is, its checksum, its buttons, and its commands once asked for. */
function ArtifactItem({ version, artifact, downloads, script }: ArtifactItemProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const [commandsShown, setCommandsShown] = useState(false);
  const commandsId = useId();
  const name = `${version.productName} ${version.semVer}`;
  const platform = t(`downloads.platforms.${artifact.platform}`);
  return (
    <li data-testid="version-artifact" data-platform={artifact.platform}>
      <div className="versions-artifact-head">
        <div className="versions-artifact-name">
          <Text fw={500} size="sm">
            {platform}
          </Text>
          <Text size="xs" c="dimmed" className="versions-file" data-testid="artifact-file">
            {artifact.fileName} · {fileSize(artifact.size, locale)}
          </Text>
        </div>
        {downloads && (
          <Group gap={4} wrap="wrap">
            <Button
              size="compact-sm"
              variant="light"
              loading={downloads.isLoading(version.id, artifact.platform)}
              onClick={() => downloads.download(version, artifact.platform)}
              aria-label={t('downloads.downloadLabel', { version: name, platform })}
              data-testid="artifact-download"
            >
              {t('downloads.download')}
            </Button>
            <Button
              size="compact-sm"
              variant="subtle"
              onClick={() => downloads.copyUrl(version, artifact.platform)}
              aria-label={t('downloads.copyUrlLabel', { version: name, platform })}
              data-testid="artifact-copy-url"
            >
              {t('downloads.copyUrl')}
            </Button>
            {script && (
              <Button
                size="compact-sm"
                variant="subtle"
                aria-expanded={commandsShown}
                aria-controls={commandsShown ? commandsId : undefined}
                onClick={() => setCommandsShown((shown) => !shown)}
                aria-label={t('releases.commands.toggleLabel', { version: name, platform })}
                data-testid="artifact-commands-toggle"
              >
                {t('releases.commands.toggle')}
              </Button>
            )}
          </Group>
        )}
      </div>
      <Group gap="xs" wrap="nowrap" align="flex-start" className="versions-checksum">
        <Text size="xs" c="dimmed" component="span" className="versions-checksum-label">
          {t('releases.sha256')}
        </Text>
        <Code className="versions-code" data-testid="artifact-sha256">
          {artifact.sha256}
        </Code>
        <Button
          size="compact-xs"
          variant="subtle"
          onClick={() => void copyWithNotice(artifact.sha256, t('releases.shaCopied'), t)}
          aria-label={t('releases.copyShaLabel', { file: artifact.fileName })}
          data-testid="artifact-sha256-copy"
        >
          {t('releases.copy')}
        </Button>
      </Group>
      {script && commandsShown && (
        <ArtifactCommands id={commandsId} version={version} artifact={artifact} script={script} />
      )}
    </li>
  );
}

/** The commands that fetch one file with the licence's secret, shown masked, copied whole. */
function ArtifactCommands({
  id,
  version,
  artifact,
  script,
}: {
  id: string;
  version: Version;
  artifact: Artifact;
  script: ScriptAccess;
}) {
  const { t } = useTranslation();
  const address = secretAddress(
    script,
    secretDownloadPath(artifact.platform, version.productKey, version.semVer, script.secret),
  );
  const copied = downloadCommands(artifact.platform, artifact.fileName, address.url);
  const shown = downloadCommands(artifact.platform, artifact.fileName, address.shown);
  const platform = t(`downloads.platforms.${artifact.platform}`);
  const name = `${version.productName} ${version.semVer}`;
  return (
    <Stack gap={6} id={id} className="versions-commands" data-testid="artifact-commands">
      {copied.map((command, index) => {
        const kind = t(`releases.commands.kinds.${command.kind}`);
        return (
          <div key={command.kind} data-testid="artifact-command" data-kind={command.kind}>
            <Text size="xs" fw={500}>
              {kind}
            </Text>
            <Group gap="xs" wrap="nowrap" align="flex-start">
              <Code className="versions-code" data-testid="artifact-command-text">
                {shown[index].command}
              </Code>
              <Button
                size="compact-sm"
                variant="subtle"
                onClick={() => void copyWithNotice(command.command, t('releases.commands.copied'), t)}
                aria-label={t('releases.commands.copyLabel', { kind, version: name, platform })}
                data-testid="artifact-command-copy"
              >
                {t('releases.copy')}
              </Button>
            </Group>
          </div>
        );
      })}
    </Stack>
  );
}
