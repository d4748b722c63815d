import type { FileHandle } from 'node:fs/promises';
import { Readable, type Writable } from 'node:stream';

/**
 * The downloads write their chunks into their sockets in turns: one chunk per event loop turn,
 * between all of them. A chunk is copied in one go; were every download's chunk written as soon as
 * its read completes, one turn could copy a chunk for each of them before it reached an API request
 * (16 downloads of 256 KiB chunks: 4 MiB, milliseconds). The writes queue instead and run after the
 * turn's I/O (setImmediate), one per turn, the rest in the turns after: an API request waits for one
 * chunk's copying at most however many downloads run. A single download loses nothing: its chunk is
 * written in the turn its read completed. The API comes first: when its requests make the turns
 * long, the downloads slow down rather than the requests (docs/decisions/044).
 */
const waitingWrites: (() => void)[] = [];
let turnScheduled = false;

function runWriteTurn() {
  turnScheduled = false;
  waitingWrites.shift()?.();
  // set during this turn's check phase, the next immediate runs in the next turn
  if (waitingWrites.length > 0) scheduleWriteTurn();
}

function scheduleWriteTurn() {
  if (turnScheduled) return;
  turnScheduled = true;
  setImmediate(runWriteTurn);
}

/** Runs `write` in a write turn (above). */
function inWriteTurn(write: () => void): void {
  waitingWrites.push(write);
  scheduleWriteTurn();
}

/**
 * A local file's bytes (or an inclusive range of them) as a Readable that, when piped, reuses two
 * buffers for the whole transfer instead of allocating one per chunk.
 *
 * fs.createReadStream hands every chunk over in a new buffer. At download speed that is hundreds of
 * megabytes a second of short-lived memory, and the garbage collector spent twice as long freeing it
 * as the socket spent sending it (bench/README.md, "Download"), with pauses that held up every API
 * request. Here one buffer is being filled from the file while the other is being written, and a
 * buffer is filled again only once the destination has taken its bytes (the write's callback), so
 * nothing is allocated per chunk and memory stays two chunks per download.
 *
 * `pipe` takes that path; any other way of reading (events, async iteration, `read()`) gets a fresh
 * buffer per chunk, as the reader may keep them.
 */
export class FileBytes extends Readable {
  private position: number;
  private readonly last: number;
  private piped = false;
  /** Wakes a transfer waiting on a write when the stream is destroyed (the client went away). */
  private wake: (() => void) | null = null;

  constructor(
    private readonly handle: FileHandle,
    range: { start: number; end: number },
    private readonly chunkSize: number,
  ) {
    super({ highWaterMark: chunkSize });
    this.position = range.start;
    this.last = range.end;
  }

  /** Bytes left to send, at most one chunk. */
  private nextLength(): number {
    return Math.min(this.chunkSize, this.last - this.position + 1);
  }

  /** The reading that any consumer gets: one new buffer per chunk, which the consumer may keep. */
  override _read(): void {
    const length = this.nextLength();
    if (length <= 0) {
      this.push(null);
      return;
    }
    const buffer = Buffer.allocUnsafe(length);
    this.handle.read(buffer, 0, length, this.position).then(
      ({ bytesRead }) => {
        if (bytesRead === 0) return this.destroy(new Error('the file ended before its expected size'));
        this.position += bytesRead;
        this.push(bytesRead === length ? buffer : buffer.subarray(0, bytesRead));
      },
      (error: Error) => this.destroy(error),
    );
  }

  override pipe<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }): T {
    // Anything already reading (or a second destination) goes the ordinary way.
    if (this.piped || this.readableFlowing !== null || this.readableLength > 0) {
      return super.pipe(destination, options);
    }
    this.piped = true;
    void this.transfer(destination as unknown as Writable, options?.end !== false);
    return destination;
  }

  private async transfer(destination: Writable, end: boolean): Promise<void> {
    const buffers = [Buffer.allocUnsafeSlow(this.nextLength()), Buffer.allocUnsafeSlow(this.nextLength())];
    let which = 0;
    // a destination closed before the end takes nothing more: the file is closed and the reading stops
    const onClose = () => {
      if (!this.readableEnded) this.destroy();
    };
    destination.once('close', onClose);
    // a write's error is kept, not thrown: the read in between must not leave a rejection unhandled
    let writing: Promise<Error | null> | null = null;
    const written = async () => {
      const error = writing ? await writing : null;
      if (error) throw error;
    };
    try {
      for (let length = this.nextLength(); length > 0 && !this.destroyed; length = this.nextLength()) {
        const buffer = buffers[which];
        which ^= 1;
        // the other buffer may still be on its way out while this one fills
        const { bytesRead } = await this.handle.read(buffer, 0, length, this.position);
        if (bytesRead === 0) throw new Error('the file ended before its expected size');
        this.position += bytesRead;
        await written();
        if (this.destroyed || destination.destroyed) return void this.destroy();
        const chunk = bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead);
        writing = new Promise((resolve) =>
          inWriteTurn(() => {
            // gone while it waited: the loop above finds out and stops
            if (this.destroyed || destination.destroyed) resolve(null);
            else void this.write(destination, chunk).then(resolve);
          }),
        );
      }
      await written();
      if (this.destroyed || destination.destroyed) return void this.destroy();
      if (end) destination.end();
      // ends this side too, so whoever watches it for its end (Fastify does) learns the file is sent
      this.push(null);
      this.resume();
    } catch (error) {
      this.destroy(error as Error);
    } finally {
      destination.removeListener('close', onClose);
    }
  }

  /**
   * Resolves once the destination has taken the chunk (or this stream is destroyed meanwhile), with
   * the write's error if it failed.
   */
  private write(destination: Writable, chunk: Buffer): Promise<Error | null> {
    return new Promise((resolve) => {
      this.wake = () => resolve(null);
      destination.write(chunk, (error) => {
        this.wake = null;
        resolve(error && !this.destroyed ? error : null);
      });
    });
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.wake?.();
    this.wake = null;
    this.handle.close().then(
      () => callback(error),
      (closeError: Error) => callback(error ?? closeError),
    );
  }
}
