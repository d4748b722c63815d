import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from '../../../i18n/use-translation';
import type { Version } from '../../../../common/api/catalogue';
import type { VersionType } from '../../../../common/domain';
import { useLocale } from '../../../app/locale';
import { fileSize } from '../../../components/file-size';
import type { useArtifactDownload } from './use-artifact-download';
import './versions.css';

const TYPE_COLOURS: Record<VersionType, string> = {
  stable: 'green',
  maintenance: 'blue',
  eol: 'gray',
  beta: 'orange',
  alpha: 'red',
};

export interface VersionCardProps {
  version: Version;
  /** null for roles without `download`: the artifacts are listed without their buttons */
  downloads: ReturnType<typeof useArtifactDownload> | null;
}

/**
 * One released version: its number, title, type and release day, the description the server
 * rendered (sanitised there, server/markdown.ts), and per platform a download and a copy-URL button.
 */
export function VersionCard({ version, downloads }: VersionCardProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const name = `${version.productName} ${version.semVer}`;
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
          <Title order={3} size="h4" id={`version-${version.id}`} data-testid="version-semver">
            {version.semVer}
          </Title>
          <Text fw={500} className="versions-title">
            {version.title}
          </Text>
          <Badge color={TYPE_COLOURS[version.type]} variant="light" data-testid="version-type">
            {t(`downloads.types.${version.type}`)}
          </Badge>
          {version.releaseDate && (
            <Text size="sm" c="dimmed" data-testid="version-release-date">
              {t('downloads.released', { date: version.releaseDate })}
            </Text>
          )}
        </Group>
        {version.descriptionHtml && (
          <div
            className="versions-description"
            data-testid="version-description"
            // rendered and sanitised by the server: no raw HTML, no script links
            dangerouslySetInnerHTML={{ __html: version.descriptionHtml }}
          />
        )}
        {version.artifacts.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="version-no-artifact">
            {t('downloads.noArtifact')}
          </Text>
        ) : (
          <ul className="versions-artifacts" aria-label={t('downloads.artifactsLabel', { version: name })}>
            {version.artifacts.map((artifact) => {
              const platform = t(`downloads.platforms.${artifact.platform}`);
              return (
                <li key={artifact.id} data-testid="version-artifact" data-platform={artifact.platform}>
                  <div className="versions-artifact-name">
                    <Text fw={500} size="sm">
                      {platform}
                    </Text>
                    <Text size="xs" c="dimmed" className="versions-file">
                      {artifact.fileName} · {fileSize(artifact.size, locale)}
                    </Text>
                  </div>
                  {downloads && (
                    <Group gap={4} wrap="nowrap">
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
                    </Group>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </Stack>
    </Paper>
  );
}
