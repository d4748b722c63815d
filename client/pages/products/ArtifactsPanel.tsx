import { Button, FileButton, Group, Progress, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import type { Translate } from '../../i18n/translate';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import type { Artifact, Version } from '../../../common/api/catalogue';
import { ERROR_CODES } from '../../../common/api/errors';
import { PLATFORMS, type Platform } from '../../../common/domain';
import { deleteArtifact, uploadArtifact } from '../../api/artifacts';
import { ApiError } from '../../api/client';
import { useLocale } from '../../app/locale';
import { ConfirmModal } from '../../components/ConfirmModal';
import { copyToClipboard } from '../../components/copy-to-clipboard';
import { DataTable } from '../../components/DataTable';
import { fileSize } from '../../components/file-size';
import { apiErrorText } from '../../components/forms';
import { notify } from '../../components/notify';

interface ArtifactsPanelProps {
  version: Version;
  /** an artifact was uploaded or removed: the version (and its artifacts) should be loaded again */
  onChanged: () => void;
}

interface UploadState {
  /** 0 to 1 while uploading; null otherwise */
  progress: number | null;
  error: string | null;
}

const SHORT_SHA = 12;

/** Why an upload or a removal failed, in the artifacts' own words where the API's speak of versions. */
function failureText(error: unknown, t: Translate): string {
  if (error instanceof ApiError && error.status === 413) return t('artifacts.tooLarge');
  if (error instanceof ApiError && error.code === ERROR_CODES.versionPublished) return t('artifacts.published');
  if (error instanceof ApiError && error.code === ERROR_CODES.storageFull) return t('artifacts.storageFull');
  return apiErrorText(error, t);
}

/**
 * A version's artifacts (decision 036): platform, file name, size and sha256 (shortened, with a copy
 * button); where the version's `can.upload` says so (an unpublished version, for those who manage
 * versions), an upload per platform with its progress, and where `can.deleteArtifacts` says so, the
 * removal of an uploaded file after a confirmation. Uploading a platform that has a file replaces it,
 * which the button says.
 */
export function ArtifactsPanel({ version, onChanged }: ArtifactsPanelProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const canUpload = version.can.upload;
  const canRemove = version.can.deleteArtifacts;
  const actions = canUpload || canRemove;
  const [uploads, setUploads] = useState<Partial<Record<Platform, UploadState>>>({});
  const [removing, setRemoving] = useState<Artifact | null>(null);
  // the platform whose file was just removed: its Remove button is gone, so its upload gets the focus
  const [removedPlatform, setRemovedPlatform] = useState<Platform | null>(null);
  const panel = useRef<HTMLDivElement>(null);
  const byPlatform = new Map<Platform, Artifact>(version.artifacts.map((artifact) => [artifact.platform, artifact]));
  const platformName = (platform: Platform) => t(`downloads.platforms.${platform}`);
  const platforms = canUpload ? PLATFORMS : PLATFORMS.filter((platform) => byPlatform.has(platform));

  const set = (platform: Platform, state: UploadState) => setUploads((all) => ({ ...all, [platform]: state }));

  async function upload(platform: Platform, file: File | null) {
    if (!file) return;
    set(platform, { progress: 0, error: null });
    try {
      await uploadArtifact(version.id, platform, file, (progress) => set(platform, { progress, error: null })).done;
      set(platform, { progress: null, error: null });
      notify({ status: 'success', message: t('artifacts.uploaded', { file: file.name }) });
      onChanged();
    } catch (error) {
      const message = t('artifacts.uploadFailed', { error: failureText(error, t) });
      set(platform, { progress: null, error: message });
      notify({ status: 'error', message });
    }
  }

  const remove = useMutation({
    mutationFn: (artifact: Artifact) => deleteArtifact(version.id, artifact.platform),
    onSuccess: (_answer, artifact) => {
      setRemoving(null);
      set(artifact.platform, { progress: null, error: null });
      setRemovedPlatform(artifact.platform);
      notify({ status: 'success', message: t('artifacts.removed', { file: artifact.fileName }) });
      onChanged();
    },
    onError: (error, artifact) => {
      setRemoving(null);
      const message = t('artifacts.removeFailed', { error: failureText(error, t) });
      set(artifact.platform, { progress: null, error: message });
      notify({ status: 'error', message });
      // already gone, or the version was published meanwhile: show what the version holds now
      if (error instanceof ApiError && (error.status === 404 || error.status === 409)) onChanged();
    },
  });

  useEffect(() => {
    if (!removedPlatform || version.artifacts.some((artifact) => artifact.platform === removedPlatform)) return;
    setRemovedPlatform(null);
    panel.current?.querySelector<HTMLElement>(`[data-upload="${removedPlatform}"]`)?.focus();
  }, [removedPlatform, version.artifacts]);

  async function copySha(artifact: Artifact) {
    try {
      await copyToClipboard(artifact.sha256);
      notify({ status: 'success', message: t('artifacts.shaCopied') });
    } catch (error) {
      notify({ status: 'error', message: t('artifacts.copyFailed', { error: apiErrorText(error, t) }) });
    }
  }

  return (
    <Stack gap="xs" data-testid="artifacts-panel" ref={panel}>
      <Title order={3} size="h5">
        {t('artifacts.title')}
      </Title>
      {canUpload && version.artifacts.length === 0 && (
        <Text size="sm" c="dimmed" data-testid="artifacts-empty">
          {t('artifacts.noneManage')}
        </Text>
      )}
      {platforms.length === 0 ? (
        <Text c="dimmed">{t('artifacts.none')}</Text>
      ) : (
        <DataTable label={t('artifacts.title')} minWidth={480} verticalSpacing={4}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('artifacts.columns.platform')}</Table.Th>
              <Table.Th>{t('artifacts.columns.file')}</Table.Th>
              <Table.Th>{t('artifacts.columns.size')}</Table.Th>
              <Table.Th>{t('artifacts.columns.sha256')}</Table.Th>
              {actions && <Table.Th>{t('artifacts.columns.actions')}</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {platforms.map((platform) => {
              const artifact = byPlatform.get(platform);
              const state = uploads[platform];
              return (
                <Table.Tr key={platform} data-testid={`artifact-${platform}`}>
                  <Table.Td>{platformName(platform)}</Table.Td>
                  <Table.Td style={{ wordBreak: 'break-all' }}>{artifact?.fileName ?? '–'}</Table.Td>
                  <Table.Td>{artifact ? fileSize(artifact.size, locale) : ''}</Table.Td>
                  <Table.Td>
                    {artifact && (
                      <Group gap={4} wrap="nowrap">
                        <Text span ff="monospace" size="sm" title={artifact.sha256}>
                          {artifact.sha256.slice(0, SHORT_SHA)}…
                        </Text>
                        <Button
                          size="compact-xs"
                          variant="subtle"
                          onClick={() => void copySha(artifact)}
                          aria-label={t('artifacts.copyShaLabel', { file: artifact.fileName })}
                        >
                          {t('artifacts.copy')}
                        </Button>
                      </Group>
                    )}
                  </Table.Td>
                  {actions && (
                    <Table.Td>
                      <Stack gap={4}>
                        {state?.progress != null ? (
                          <Progress
                            value={Math.round(state.progress * 100)}
                            aria-label={t('artifacts.progressLabel', { platform: platformName(platform) })}
                            aria-valuetext={`${Math.round(state.progress * 100)} %`}
                            data-testid={`artifact-progress-${platform}`}
                          />
                        ) : (
                          <Group gap={4}>
                            {canUpload && (
                              <FileButton onChange={(file) => void upload(platform, file)}>
                                {(props) => (
                                  <Button
                                    {...props}
                                    size="compact-sm"
                                    variant="light"
                                    data-upload={platform}
                                    aria-label={t(artifact ? 'artifacts.replaceLabel' : 'artifacts.uploadLabel', {
                                      platform: platformName(platform),
                                      file: artifact?.fileName,
                                    })}
                                  >
                                    {t(artifact ? 'artifacts.replace' : 'artifacts.upload')}
                                  </Button>
                                )}
                              </FileButton>
                            )}
                            {canRemove && artifact && (
                              <Button
                                size="compact-sm"
                                variant="subtle"
                                color="red"
                                onClick={() => setRemoving(artifact)}
                                aria-label={t('artifacts.removeLabel', {
                                  platform: platformName(platform),
                                  file: artifact.fileName,
                                })}
                                data-testid={`artifact-remove-${platform}`}
                              >
                                {t('artifacts.remove')}
                              </Button>
                            )}
                          </Group>
                        )}
                        {state?.error && (
                          <Text size="sm" c="red" role="alert">
                            {state.error}
                          </Text>
                        )}
                      </Stack>
                    </Table.Td>
                  )}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </DataTable>
      )}
      {canUpload && version.artifacts.length > 0 && (
        <Text size="sm" c="dimmed">
          {t('artifacts.replaceHint')}
        </Text>
      )}
      {canUpload && (
        <Text size="sm" c="dimmed" data-testid="artifacts-version-id">
          {t('artifacts.pipelineHint', { id: version.id })}
        </Text>
      )}
      <ConfirmModal
        opened={removing !== null}
        title={t('artifacts.removeTitle')}
        message={
          removing
            ? t('artifacts.removeConfirm', {
                file: removing.fileName,
                platform: platformName(removing.platform),
                version: version.semVer,
              })
            : ''
        }
        cancelLabel={t('artifacts.keep')}
        confirmLabel={t('artifacts.remove')}
        confirmColor="red"
        pending={remove.isPending}
        testId="artifact-remove-confirm"
        confirmTestId="artifact-remove-yes"
        onCancel={() => setRemoving(null)}
        onConfirm={() => removing && remove.mutate(removing)}
      />
    </Stack>
  );
}
