import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../../i18n/use-translation';
import { secretDownloadPath, type Version } from '../../../../common/api/catalogue';
import type { Licence } from '../../../../common/api/licences';
import type { Platform } from '../../../../common/domain';
import { allowsDownload } from '../../../../common/licence-status';
import { browser, checkDownload, downloadUrl } from '../../../api/downloads';
import { notify } from '../../../components/notify';
import { copyWithNotice } from '../../../components/copy-with-notice';

/** Spec 4 "Download": how long an artifact stays marked loading after its check answered. */
const LOADING_RESET_MS = 1000;

const keyOf = (versionId: number, platform: Platform) => `${versionId}:${platform}`;

/**
 * Downloads and copied URLs of one licence's versions. A download marks the artifact loading, checks
 * the link, sends the browser to the file when the check answers 200 (the file comes as an
 * attachment, so the page stays), and says why otherwise; the mark goes one second after the check.
 * An expired licence gets spec 8's text instead, as the licence table's download cell does.
 */
export function useArtifactDownload(customerId: number, licence: Licence) {
  const { t } = useTranslation();
  const [loading, setLoading] = useState<ReadonlySet<string>>(() => new Set());
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach((timer) => clearTimeout(timer));
  }, []);
  const allowed = allowsDownload(licence.status) && licence.downloadSecret !== null;
  const expired = useCallback(() => notify({ status: 'error', message: t('licences.expired') }), [t]);

  const download = async (version: Version, platform: Platform) => {
    if (!allowed) return expired();
    const key = keyOf(version.id, platform);
    if (loading.has(key)) return;
    setLoading((current) => new Set(current).add(key));
    const target = { platform, customerId, versionId: version.id };
    const status = await checkDownload(target);
    if (status === 200) browser.assign(downloadUrl(target));
    else notify({ status: 'error', message: t('downloads.failed', { status }) });
    const timer = setTimeout(() => {
      timers.current.delete(timer);
      setLoading((current) => {
        const next = new Set(current);
        next.delete(key);
        return next;
      });
    }, LOADING_RESET_MS);
    timers.current.add(timer);
  };

  const copyUrl = async (version: Version, platform: Platform) => {
    if (!allowed || !licence.downloadSecret) return expired();
    const url =
      browser.origin() + secretDownloadPath(platform, version.productKey, version.semVer, licence.downloadSecret);
    await copyWithNotice(url, t('downloads.copied'), t);
  };

  return {
    isLoading: (versionId: number, platform: Platform) => loading.has(keyOf(versionId, platform)),
    download: (version: Version, platform: Platform) => void download(version, platform),
    copyUrl: (version: Version, platform: Platform) => void copyUrl(version, platform),
  };
}
