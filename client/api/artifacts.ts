import { queryOptions } from '@tanstack/react-query';
import {
  Artifact,
  CreatedProductToken,
  type CreateProductTokenBody,
  ProductTokenList,
} from '../../common/api/catalogue';
import { ErrorBody } from '../../common/api/errors';
import type { Platform } from '../../common/domain';
import { ApiError, api, buildUrl, NETWORK_ERROR_STATUS } from './client';
import { catalogueKeys } from './catalogue';

/** Query keys of a product's API tokens, under the product's. */
export const tokenKeys = {
  all: (productKey: string) => [...catalogueKeys.product(productKey), 'tokens'] as const,
};

const productPath = (productKey: string) => `/products/${encodeURIComponent(productKey)}/tokens`;

export const productTokensQuery = (productKey: string) =>
  queryOptions({
    queryKey: tokenKeys.all(productKey),
    queryFn: ({ signal }) => api.get(productPath(productKey), { schema: ProductTokenList, signal }),
  });

export const createProductToken = (productKey: string, body: CreateProductTokenBody, idempotencyKey?: string) =>
  api.post(productPath(productKey), body, { schema: CreatedProductToken, idempotencyKey });

export const revokeProductToken = (productKey: string, id: number) =>
  api.delete<unknown>(`${productPath(productKey)}/${id}`);

const artifactPath = (versionId: number, platform: Platform) => `/versions/${versionId}/artifacts/${platform}`;

export const deleteArtifact = (versionId: number, platform: Platform) =>
  api.delete<unknown>(artifactPath(versionId, platform));

/** The command line a release pipeline uploads with (docs/operations.md). */
export function curlCommand(origin: string, token: string, versionId: number | string, platform: string, file: string) {
  return `curl --fail-with-body -T ${file} -H "Authorization: Bearer ${token}" "${origin}/api/versions/${versionId}/artifacts/${platform}"`;
}

/**
 * `PUT /api/versions/{id}/artifacts/{platform}` with the file as the body. XMLHttpRequest rather than
 * fetch: only it reports upload progress. The file goes as application/octet-stream whatever its type
 * (a slice with another type, not a copy), and its name in `fileName`.
 */
export function uploadArtifact(
  versionId: number,
  platform: Platform,
  file: File,
  onProgress: (fraction: number) => void,
): { done: Promise<Artifact>; abort: () => void } {
  const xhr = new XMLHttpRequest();
  const done = new Promise<Artifact>((resolve, reject) => {
    xhr.open('PUT', buildUrl(artifactPath(versionId, platform), { fileName: file.name }));
    xhr.responseType = 'text';
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        const parsed = Artifact.safeParse(body);
        if (parsed.success) resolve(parsed.data);
        else reject(new ApiError(xhr.status, 'invalid_response', parsed.error.message));
        return;
      }
      const error = ErrorBody.safeParse(body);
      reject(
        error.success
          ? new ApiError(xhr.status, error.data.error.code, error.data.error.message, error.data.error.details ?? [])
          : new ApiError(xhr.status, 'http_error', xhr.statusText || `HTTP ${xhr.status}`),
      );
    };
    xhr.onerror = () => reject(new ApiError(NETWORK_ERROR_STATUS, 'network_error', 'Network error'));
    xhr.onabort = () => reject(new ApiError(NETWORK_ERROR_STATUS, 'aborted', 'Upload cancelled'));
    xhr.send(file.slice(0, file.size, 'application/octet-stream'));
  });
  return { done, abort: () => xhr.abort() };
}
