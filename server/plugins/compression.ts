import zlib from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Answers smaller than this go as they are: compressing them saves less than it costs. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * Answers up to this size are compressed in one call rather than through a stream: no stream, no
 * zlib context on the thread pool, a Content-Length instead of a chunked answer. @fastify/compress
 * sizes it from the cores it sees (8 KB on two), which sent a page of versions (10 KB) down the
 * stream at a third of the cost of its request (decision 090).
 */
export const COMPRESS_IN_ONE_CALL_BYTES = 64 * 1024;

/**
 * Compresses API answers for clients that accept it (decisions 020, 090). Registered inside the /api
 * scope only: the built client's files are compressed once at build time and served as they are
 * (plugins/spa.ts), never compressed again per request. API answers are made on every request:
 * brotli at quality 2 takes half the time of quality 4 for answers 6 % larger, and still smaller
 * than gzip's; gzip, for the clients without brotli, at level 1. The top qualities are for build time.
 */
export async function apiCompression(api: FastifyInstance) {
  await api.register(fastifyCompress, {
    global: true,
    // Answers only: a request body is taken as sent. Signed webhooks check the exact bytes received,
    // and nobody asked for compressed requests.
    globalDecompression: false,
    threshold: COMPRESS_THRESHOLD_BYTES,
    syncThreshold: COMPRESS_IN_ONE_CALL_BYTES,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 2 } },
    zlibOptions: { level: 1 },
  });
}
