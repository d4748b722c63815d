import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileBytes } from './file-bytes';
import {
  ArtifactMissingError,
  type ArtifactStorage,
  ArtifactTooLargeError,
  assertSafeKey,
  type ByteRange,
  type StoredObject,
} from './types';

/**
 * Reads of 256 KiB, into two buffers reused for the whole download (file-bytes.ts), so memory stays
 * 512 KiB per download whatever the file's size. A chunk is copied into its socket in one go, so the
 * chunk also bounds how long the downloads hold up an API call: with 16 clients 1 MiB chunks doubled
 * the API's p99 against 256 KiB, for 5 to 15 % more throughput; 128 KiB cost one download half its
 * speed (docs/decisions/044, bench/README.md "Download").
 */
const READ_CHUNK = 256 * 1024;

/**
 * Artifacts in a local folder (the embedded default, `DATA_DIR/artifacts` or `ARTIFACTS_DIR`). A file
 * is written under `.partial/` and renamed into place once complete, so a cut or oversized upload
 * leaves nothing and readers never see half a file.
 */
export function createLocalStorage(root: string): ArtifactStorage {
  const base = path.resolve(root);
  const partialDir = path.join(base, '.partial');

  function pathOf(key: string): string {
    assertSafeKey(key);
    const full = path.resolve(base, key);
    if (!full.startsWith(base + path.sep)) throw new Error(`unsafe storage key: ${JSON.stringify(key)}`);
    return full;
  }

  return {
    kind: 'local',

    async put(key, body, { maxBytes }): Promise<StoredObject> {
      const target = pathOf(key);
      await fs.promises.mkdir(partialDir, { recursive: true });
      const partial = path.join(partialDir, `${crypto.randomUUID()}.part`);
      const hash = crypto.createHash('sha256');
      let size = 0;
      const meter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          size += chunk.length;
          if (size > maxBytes) return callback(new ArtifactTooLargeError(maxBytes));
          hash.update(chunk);
          callback(null, chunk);
        },
      });
      try {
        await pipeline(body, meter, fs.createWriteStream(partial, { flags: 'wx' }));
        await fs.promises.mkdir(path.dirname(target), { recursive: true });
        await fs.promises.rename(partial, target);
      } catch (error) {
        await fs.promises.rm(partial, { force: true });
        // the request body stops being read: a client still sending learns of it from the closed socket
        if (!body.destroyed) body.destroy();
        throw error;
      }
      return { size, sha256: hash.digest('hex') };
    },

    async read(key, range?: ByteRange): Promise<Readable> {
      const file = pathOf(key);
      let handle: fs.promises.FileHandle;
      try {
        handle = await fs.promises.open(file, 'r');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new ArtifactMissingError(key);
        throw error;
      }
      try {
        const end = range ? range.end : (await handle.stat()).size - 1;
        return new FileBytes(handle, { start: range ? range.start : 0, end }, READ_CHUNK);
      } catch (error) {
        await handle.close();
        throw error;
      }
    },

    async remove(key) {
      await fs.promises.rm(pathOf(key), { force: true });
    },

    async *list() {
      const folders = [base];
      while (folders.length > 0) {
        const folder = folders.pop()!;
        let entries: fs.Dirent[];
        try {
          entries = await fs.promises.readdir(folder, { withFileTypes: true });
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
          throw error;
        }
        for (const entry of entries) {
          const full = path.join(folder, entry.name);
          if (entry.isDirectory()) {
            if (full !== partialDir) folders.push(full);
          } else if (entry.isFile()) {
            const stat = await fs.promises.stat(full).catch(() => null);
            if (stat) yield { key: path.relative(base, full).split(path.sep).join('/'), modifiedAt: stat.mtime };
          }
        }
      }
    },

    async removeAbandonedUploads(olderThan) {
      let removed = 0;
      const names = await fs.promises.readdir(partialDir).catch(() => [] as string[]);
      for (const name of names) {
        const file = path.join(partialDir, name);
        const stat = await fs.promises.stat(file).catch(() => null);
        // an upload under way writes its file all along: one left alone this long was cut short
        if (stat?.isFile() && stat.mtime < olderThan) {
          await fs.promises.rm(file, { force: true });
          removed++;
        }
      }
      return removed;
    },

    localPath(key) {
      return pathOf(key);
    },

    async presignedUrl() {
      return null;
    },
  };
}
