import type { Config } from '../../config';
import { createLocalStorage } from './local';
import { createS3Storage } from './s3';
import type { ArtifactStorage } from './types';

export * from './types';

/** The configured store: S3-compatible when S3_BUCKET is set, else the local folder. */
export function createStorage(config: Config): ArtifactStorage {
  return config.s3 ? createS3Storage(config.s3) : createLocalStorage(config.artifactsDir);
}
