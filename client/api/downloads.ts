import type { Platform } from '../../common/domain';
import { ApiError, NETWORK_ERROR_STATUS, api, buildUrl } from './client';

interface DownloadTarget {
  platform: Platform;
  customerId: number;
  versionId: number;
}

/** `GET /api/download/{platform}?customerId&versionId`: the artifact itself, for the browser to fetch. */
export const downloadUrl = ({ platform, customerId, versionId }: DownloadTarget) =>
  buildUrl(`/download/${encodeURIComponent(platform)}`, { customerId, versionId });

/**
 * The same route with `check` (spec 4 "Download"): whether the download is allowed, answered by its
 * status alone, so a refusal is known before the browser leaves the page. Resolves to the status
 * (0 when the server could not be reached).
 */
export async function checkDownload({ platform, customerId, versionId }: DownloadTarget): Promise<number> {
  try {
    await api.get(`/download/${encodeURIComponent(platform)}`, { query: { customerId, versionId, check: 1 } });
    return 200;
  } catch (error) {
    if (error instanceof ApiError) return error.status;
    return NETWORK_ERROR_STATUS;
  }
}

/** How the browser is sent to a download; tests replace it with a spy. */
export const browser = {
  assign: (url: string) => window.location.assign(url),
  origin: () => window.location.origin,
};
