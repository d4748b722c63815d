import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileBytes } from './file-bytes';

/**
 * The file stream that reuses its two buffers when piped: the bytes must come out whole and in order
 * whatever the destination's pace, another reader must get buffers of its own, and a destination that
 * goes away must stop the transfer and close the file.
 */

const CHUNK = 64 * 1024;
const SIZE = 10 * CHUNK + 1234;
let dir: string;
let file: string;
let content: Buffer;

const sha256 = (buffer: Buffer) => crypto.createHash('sha256').update(buffer).digest('hex');

async function open(range = { start: 0, end: SIZE - 1 }) {
  return new FileBytes(await fs.promises.open(file, 'r'), range, CHUNK);
}

/** A destination that keeps a copy of what it is given and takes it back `delayMs` later. */
function slowCopier(delayMs: number) {
  const chunks: Buffer[] = [];
  const destination = new Writable({
    highWaterMark: 1,
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(Buffer.from(chunk));
      setTimeout(callback, delayMs);
    },
  });
  return { destination, received: () => Buffer.concat(chunks) };
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-file-bytes-'));
  file = path.join(dir, 'artifact.bin');
  content = crypto.randomBytes(SIZE);
  fs.writeFileSync(file, content);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('FileBytes', () => {
  it('pipes the whole file in order to a destination slower than the disk', async () => {
    const { destination, received } = slowCopier(2);
    const stream = await open();
    await new Promise<void>((resolve, reject) => {
      destination.on('finish', resolve).on('error', reject);
      stream.on('error', reject);
      stream.pipe(destination);
    });
    expect(sha256(received())).toBe(sha256(content));
    expect(stream.readableEnded).toBe(true);
  });

  it('pipes an inclusive range that does not fall on chunk boundaries', async () => {
    const { destination, received } = slowCopier(0);
    const stream = await open({ start: CHUNK - 7, end: 3 * CHUNK + 100 });
    await new Promise<void>((resolve, reject) => {
      destination.on('finish', resolve).on('error', reject);
      stream.pipe(destination);
    });
    expect(received().equals(content.subarray(CHUNK - 7, 3 * CHUNK + 101))).toBe(true);
  });

  it('reuses its two buffers when piped, so a destination must copy what it keeps', async () => {
    // kept without copying, the chunks show the reuse: only two distinct memory regions
    const kept: Buffer[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        kept.push(chunk);
        callback();
      },
    });
    await pipeline(await open(), destination);
    expect(kept.length).toBe(11);
    expect(new Set(kept.map((chunk) => chunk.buffer)).size).toBe(2);
  });

  it('lets concurrent transfers write in turns: one chunk per event loop turn between them', async () => {
    // a counter of the loop's turns: an immediate that schedules itself runs once per turn
    let turn = 0;
    let counting = true;
    const count = () => {
      turn++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const turnsOfWrites: number[] = [];
    const transfers = Array.from({ length: 4 }, async () => {
      const chunks: Buffer[] = [];
      const destination = new Writable({
        write(chunk: Buffer, _encoding, callback) {
          turnsOfWrites.push(turn);
          chunks.push(Buffer.from(chunk));
          callback();
        },
      });
      await pipeline(await open(), destination);
      return Buffer.concat(chunks);
    });
    const received = await Promise.all(transfers);
    counting = false;
    for (const bytes of received) expect(sha256(bytes)).toBe(sha256(content));
    expect(turnsOfWrites).toHaveLength(4 * 11);
    expect(new Set(turnsOfWrites).size).toBe(turnsOfWrites.length);
  });

  it('gives a reader that is not a pipe a buffer of its own per chunk', async () => {
    const kept: Buffer[] = [];
    for await (const chunk of await open()) kept.push(chunk as Buffer);
    expect(sha256(Buffer.concat(kept))).toBe(sha256(content));
    expect(new Set(kept.map((chunk) => chunk.buffer)).size).toBe(kept.length);
  });

  it('pipes through stream.pipeline to an HTTP response, as the download routes do', async () => {
    const server = http.createServer((_request, response) => {
      response.writeHead(200, { 'Content-Length': String(SIZE) });
      open()
        .then((stream) => pipeline(stream, response))
        .catch(() => response.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const answer = await fetch(`http://127.0.0.1:${port}/`);
      expect(sha256(Buffer.from(await answer.arrayBuffer()))).toBe(sha256(content));
    } finally {
      server.close();
    }
  });

  it('stops and closes the file when the destination goes away mid-transfer', async () => {
    const destination = new PassThrough({ highWaterMark: CHUNK });
    const handle = await fs.promises.open(file, 'r');
    const stream = new FileBytes(handle, { start: 0, end: SIZE - 1 }, CHUNK);
    const closed = new Promise<void>((resolve) => stream.once('close', resolve));
    let taken = 0;
    const failed = new Promise<Error>((resolve) => destination.once('error', resolve));
    destination.on('data', (chunk: Buffer) => {
      taken += chunk.length;
      // the destination fails after the first chunk, as a socket whose client went away
      if (taken >= CHUNK) destination.destroy(new Error('the client went away'));
    });
    stream.pipe(destination);
    await closed;
    expect((await failed).message).toBe('the client went away');
    expect(stream.destroyed).toBe(true);
    expect(handle.fd).toBe(-1);
    expect(taken).toBeLessThan(SIZE);
  });

  it('fails, instead of waiting for ever, when the file is shorter than the range', async () => {
    const { destination } = slowCopier(0);
    const stream = await open({ start: 0, end: SIZE + CHUNK });
    const failure = new Promise<Error>((resolve) => stream.once('error', resolve));
    stream.pipe(destination);
    expect((await failure).message).toMatch(/ended before its expected size/);
  });
});
