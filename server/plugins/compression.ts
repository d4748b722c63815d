import zlib from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Answers smaller than this go as they are: compressing them saves less than it costs. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * Compresses API answers for clients that accept it (decision 020). Registered inside the /api
 * scope only: the built client's files are compressed once at build time and served as they are
 * (plugins/spa.ts), never compressed again per request. Brotli at quality 4 costs about what gzip
 * does and still compresses better; the top qualities are for build time.
 */
export async function apiCompression(api: FastifyInstance) {
  await api.register(fastifyCompress, {
    global: true,
    // Answers only: a request body is taken as sent. Signed webhooks check the exact bytes received,
    // and nobody asked for compressed requests.
    globalDecompression: false,
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
  });
}
