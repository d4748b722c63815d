import type { Config } from '../../config';
import { createLocalStorage } from './local';
import type { S3Options } from './s3';
import type { ArtifactStorage } from './types';

export * from './types';

/** The configured store: S3-compatible when S3_BUCKET is set, else the local folder. */
export function createStorage(config: Config): ArtifactStorage {
  return config.s3 ? lazyS3Storage(config.s3) : createLocalStorage(config.artifactsDir);
}

/**
 * The S3-compatible store, its client (the AWS SDK, some 20 MB of memory once loaded) loaded at its
 * first use: a portal that stores its files in a folder never loads it.
 */
function lazyS3Storage(options: S3Options): ArtifactStorage {
  let store: Promise<ArtifactStorage> | null = null;
  const loaded = () => (store ??= import('./s3').then(({ createS3Storage }) => createS3Storage(options)));
  return {
    kind: 's3',
    put: async (key, body, putOptions) => (await loaded()).put(key, body, putOptions),
    read: async (key, range) => (await loaded()).read(key, range),
    remove: async (key) => (await loaded()).remove(key),
    async *list() {
      yield* (await loaded()).list();
    },
    removeAbandonedUploads: async (olderThan) => (await loaded()).removeAbandonedUploads(olderThan),
    // the S3 store serves no file from a local path
    localPath: () => null,
    presignedUrl: async (key, urlOptions) => (await loaded()).presignedUrl(key, urlOptions),
  };
}
