import { describe, expect, it } from 'vitest';
import { PLATFORMS } from '../common/domain';
import { ARTIFACT_FILES, artifactStorageKey } from './modules/artifacts/stored-files';
import { kindsOfKey, STORED_FILE_KINDS } from './stored-file-kinds';

describe('the kinds of stored files', () => {
  it('give each key one kind at most: every example fits its own kind alone', () => {
    for (const kind of STORED_FILE_KINDS) {
      expect(
        kindsOfKey(kind.example).map((each) => each.name),
        kind.name,
      ).toEqual([kind.name]);
    }
    expect(new Set(STORED_FILE_KINDS.map((kind) => kind.name)).size).toBe(STORED_FILE_KINDS.length);
  });

  it('take every key an upload is given for an artifact, whatever its product and version', () => {
    for (const platform of PLATFORMS) {
      expect(kindsOfKey(artifactStorageKey('graph-studio', '2.1.0+build.5', platform))).toEqual([ARTIFACT_FILES]);
    }
    expect(artifactStorageKey('Odd key', '1.0.0 beta', 'linux')).toMatch(/^Odd_key\/1\.0\.0_beta\/linux\//);
  });

  it('take no key that is not the portal’s', () => {
    for (const key of [
      'operator/notes.txt',
      '.partial/abandoned.part',
      `graph-studio/2.1.0/macos/0b8f2d3e-6f1a-4c5e-9d7b-2a4c6e8f0a1b`,
      'graph-studio/2.1.0/linux/not-a-uuid',
      'bundles/graph-studio/2.1.0/linux/0b8f2d3e-6f1a-4c5e-9d7b-2a4c6e8f0a1b',
    ]) {
      expect(kindsOfKey(key), key).toEqual([]);
    }
  });
});
