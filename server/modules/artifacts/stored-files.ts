import crypto from 'node:crypto';
import { PLATFORMS, type Platform } from '../../../common/domain';
import type { StoredFileKind } from '../../stored-file-kinds';
import { knownStorageKeys } from './repo';

/** A product's key or a version's semVer (`1.0.0+build.5`) in a storage key: only the characters keys allow, others as `_`. */
const keyPart = (value: string) => value.replace(/[^A-Za-z0-9._-]/g, '_');

/** Where a version's file of a platform is stored: `product/version/platform/uuid`, a new key per upload. */
export const artifactStorageKey = (productKey: string, semVer: string, platform: Platform): string =>
  [keyPart(productKey), keyPart(semVer), platform, crypto.randomUUID()].join('/');

/** The versions' files, each referred to by its row of `artifacts` (`storage_key`). */
export const ARTIFACT_FILES: StoredFileKind = {
  name: 'artifacts',
  keyPattern: new RegExp(
    `^[A-Za-z0-9._-]+/[A-Za-z0-9._-]+/(?:${PLATFORMS.join('|')})/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`,
  ),
  example: 'graph-studio/2.1.0/linux/0b8f2d3e-6f1a-4c5e-9d7b-2a4c6e8f0a1b',
  inUse: knownStorageKeys,
};
