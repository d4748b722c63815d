import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3 } from '../../test/s3';
import { createLocalStorage } from './local';
import { createS3Storage } from './s3';
import { ArtifactMissingError, type ArtifactStorage, ArtifactTooLargeError } from './types';

/**
 * The same behaviour asked of both stores: the local folder and an S3-compatible bucket (s3rver).
 * `files` lists every file the store keeps on disk, so "leaves nothing" is checked where the bytes
 * would be, parts of a multipart upload included.
 */
interface Subject {
  storage: ArtifactStorage;
  files: () => string[];
  close: () => Promise<void>;
}

function walk(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .flatMap((entry) => (entry.isFile() ? [path.relative(dir, path.join(entry.parentPath, entry.name))] : []));
}

const subjects: Record<string, () => Promise<Subject>> = {
  local: async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-local-store-'));
    return {
      storage: createLocalStorage(dir),
      files: () => walk(dir),
      close: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  },
  s3: async () => {
    const s3 = await startS3();
    return {
      storage: createS3Storage(s3.options),
      // s3rver keeps an object as `key._S3rver_object` beside its metadata, parts under `._S3rver_uploads`
      files: () => walk(s3.directory).filter((file) => !file.endsWith('._S3rver_metadata.json')),
      close: s3.close,
    };
  },
};

const MiB = 1024 * 1024;
const bytes = (size: number, seed = 1) => {
  const buffer = Buffer.alloc(size);
  for (let i = 0; i < size; i++) buffer[i] = (i * 31 + seed) & 0xff;
  return buffer;
};
const sha256 = (buffer: Buffer) => crypto.createHash('sha256').update(buffer).digest('hex');

/** A body that sends `size` bytes in 64 KiB chunks and then fails, as a request whose client went away. */
function cutBody(size: number): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= size) {
        this.destroy(new Error('aborted'));
        return;
      }
      const chunk = bytes(Math.min(64 * 1024, size - sent), sent);
      sent += chunk.length;
      this.push(chunk);
    },
  });
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

for (const [name, make] of Object.entries(subjects)) {
  describe(`${name} artifact storage`, () => {
    let subject: Subject;
    let storage: ArtifactStorage;
    beforeAll(async () => {
      subject = await make();
      storage = subject.storage;
    });
    afterAll(async () => subject?.close());

    it('stores a stream and answers its size and sha256', async () => {
      const content = bytes(300 * 1024);
      const stored = await storage.put('p/1.0.0/linux/a', Readable.from([content]), { maxBytes: MiB });
      expect(stored).toEqual({ size: content.length, sha256: sha256(content) });
      expect((await readAll(await storage.read('p/1.0.0/linux/a'))).equals(content)).toBe(true);
    });

    it('stores a file of several upload parts', async () => {
      const content = bytes(19 * MiB, 7);
      const stored = await storage.put('p/1.0.0/linux/big', Readable.from([content]), { maxBytes: 20 * MiB });
      expect(stored).toEqual({ size: content.length, sha256: sha256(content) });
      const back = await readAll(await storage.read('p/1.0.0/linux/big'));
      expect(sha256(back)).toBe(stored.sha256);
      await storage.remove('p/1.0.0/linux/big');
    });

    it('reads an inclusive byte range', async () => {
      await storage.put('p/1.0.0/osx/r', Readable.from([Buffer.from('0123456789')]), { maxBytes: 100 });
      expect(await text(await storage.read('p/1.0.0/osx/r', { start: 2, end: 5 }))).toBe('2345');
      expect(await text(await storage.read('p/1.0.0/osx/r', { start: 9, end: 9 }))).toBe('9');
    });

    it('removes an object, and removing a missing one is no error', async () => {
      await storage.put('p/1.0.0/npm/gone', Readable.from([Buffer.from('x')]), { maxBytes: 100 });
      await storage.remove('p/1.0.0/npm/gone');
      await expect(storage.read('p/1.0.0/npm/gone')).rejects.toBeInstanceOf(ArtifactMissingError);
      await expect(storage.remove('p/1.0.0/npm/gone')).resolves.toBeUndefined();
    });

    it('refuses a file past the limit and keeps nothing of it', async () => {
      const before = subject.files();
      await expect(
        storage.put('p/2.0.0/linux/small-limit', cutBody(2 * MiB), { maxBytes: MiB }),
      ).rejects.toBeInstanceOf(ArtifactTooLargeError);
      await expect(storage.read('p/2.0.0/linux/small-limit')).rejects.toBeInstanceOf(ArtifactMissingError);
      expect(subject.files()).toEqual(before);
    });

    it('refuses a file past the limit after parts were sent, and keeps none of them', async () => {
      const before = subject.files();
      const body = Readable.from([bytes(9 * MiB), bytes(9 * MiB, 3), bytes(9 * MiB, 5)]);
      await expect(storage.put('p/2.0.0/linux/too-large', body, { maxBytes: 20 * MiB })).rejects.toBeInstanceOf(
        ArtifactTooLargeError,
      );
      await expect(storage.read('p/2.0.0/linux/too-large')).rejects.toBeInstanceOf(ArtifactMissingError);
      expect(subject.files()).toEqual(before);
    });

    it('keeps nothing of a cut stream, parts included', async () => {
      const before = subject.files();
      await expect(storage.put('p/2.0.0/windows/cut', cutBody(18 * MiB), { maxBytes: 100 * MiB })).rejects.toThrow(
        'aborted',
      );
      await expect(storage.read('p/2.0.0/windows/cut')).rejects.toBeInstanceOf(ArtifactMissingError);
      expect(subject.files()).toEqual(before);
    });

    it('leaves the object in place when a replacement fails', async () => {
      await storage.put('p/3.0.0/docker/kept', Readable.from([Buffer.from('first')]), { maxBytes: 100 });
      await expect(
        storage.put('p/3.0.0/docker/kept', Readable.from([bytes(1000)]), { maxBytes: 100 }),
      ).rejects.toBeInstanceOf(ArtifactTooLargeError);
      expect(await text(await storage.read('p/3.0.0/docker/kept'))).toBe('first');
    });

    it('refuses keys that could leave the store', async () => {
      for (const key of ['../escape', 'a/../../escape', '/etc/passwd', 'a//b', '.hidden', 'a/./b', 'a\\b', '']) {
        await expect(storage.put(key, Readable.from([Buffer.from('x')]), { maxBytes: 10 }), key).rejects.toThrow(
          'unsafe storage key',
        );
        await expect(storage.read(key), key).rejects.toThrow('unsafe storage key');
        await expect(storage.remove(key), key).rejects.toThrow('unsafe storage key');
      }
    });

    it(
      name === 's3' ? 'presigns a short-lived URL that serves the file under its name' : 'presigns nothing',
      async () => {
        await storage.put('p/4.0.0/generic/signed', Readable.from([Buffer.from('signed bytes')]), { maxBytes: 100 });
        const url = await storage.presignedUrl('p/4.0.0/generic/signed', {
          fileName: 'tool-4.0.0 é.tar.gz',
          expiresInSeconds: 60,
        });
        if (name === 'local') {
          expect(url).toBeNull();
          return;
        }
        expect(url).toMatch(/X-Amz-Expires=60/);
        const response = await fetch(url!);
        expect(response.status).toBe(200);
        expect(await response.text()).toBe('signed bytes');
        expect(response.headers.get('content-disposition')).toBe(
          `attachment; filename="tool-4.0.0 e.tar.gz"; filename*=UTF-8''tool-4.0.0%20%C3%A9.tar.gz`,
        );
      },
    );
  });
}
