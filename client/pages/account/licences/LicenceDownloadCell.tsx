import { Button, Group, Text } from '@mantine/core';
import { useTranslation } from '../../../i18n/use-translation';
import type { Licence } from '../../../../common/api/licences';
import { allowsDownload } from '../../../../common/licence-status';
import { licenceFileUrl } from '../../../api/licences';
import { notify } from '../../../components/notify';
import { copyWithNotice } from '../../../components/copy-with-notice';
import { productLabel } from './product-label';

/**
 * The download cell (spec 2, roles with `download`): the licence file, and the download key copied
 * to the clipboard. An expired licence (past its grace) has no file to download (decisions.md:
 * downloads stop there, and the server refuses the file): the cell says so in plain text where the
 * link would be, readable by anyone who reaches the row, and offers no control that could only
 * fail (decision 094). Copying its key still answers spec 8's text (spec 4: copying the key of an
 * invalid licence yields an expired warning).
 */
export function LicenceDownloadCell({ licence }: { licence: Licence }) {
  const { t } = useTranslation();
  const product = productLabel(t, licence);
  const allowed = allowsDownload(licence.status);
  const expired = () => notify({ status: 'error', message: t('licences.expired') });

  const copy = async () => {
    if (!allowed || !licence.downloadSecret) return expired();
    await copyWithNotice(licence.downloadSecret, t('licences.copied'), t);
  };

  return (
    <Group gap={4}>
      {allowed ? (
        <Button
          component="a"
          href={licenceFileUrl(licence.productKey, licence.customerId)}
          download
          size="compact-sm"
          variant="subtle"
          aria-label={t('licences.downloadFileLabel', { product })}
          data-testid="licence-download"
        >
          {t('licences.downloadFile')}
        </Button>
      ) : (
        <Text size="sm" px="xs" data-testid="licence-file-unavailable">
          {t('licences.noFileExpired')}
        </Text>
      )}
      <Button
        size="compact-sm"
        variant="subtle"
        onClick={() => void copy()}
        aria-label={t('licences.copyKeyLabel', { product })}
        data-testid="licence-copy-key"
      >
        {t('licences.copyKey')}
      </Button>
    </Group>
  );
}
