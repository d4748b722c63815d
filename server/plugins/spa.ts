import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { SESSION_COOKIE, SIGNED_OUT_ATTRIBUTE } from '../../common/constants';
import { ERROR_CODES } from '../../common/api/errors';
import { isPublicPage } from '../../common/public-pages';

/** Files the build writes for its own use, never served: source maps, and the .br/.gz twins by name. */
const PRIVATE_FILE = /\.(map|br|gz)$/i;

/**
 * Serves the built client: hashed assets cached for good, the sign-in pages answered with public.html
 * (their light page, decision 024), every other page path with index.html (history fallback) so the
 * client's router decides; unknown /api paths answer the JSON 404.
 * The build writes a brotli and a gzip copy of each text file (vite.config.ts); the copy the browser
 * accepts is sent as it is, with no compression per request (decision 020).
 */
async function spaPlugin(app: FastifyInstance) {
  const root = app.ctx.config.staticDir;

  /** The sign-in page's own HTML: pre-rendered for its language when the build made it, else public.html. */
  const publicPage = (pathname: string) => {
    const prerendered = path.join('prerendered', `${pathname.replace(/\/$/, '')}.html`);
    return fs.existsSync(path.join(root, prerendered)) ? prerendered : 'public.html';
  };

  /**
   * A sign-in page for a visitor who sends no session cookie: marked so on its <html> element, the
   * page does not ask the API who the visitor is, whose answer could only be a 401 (which browsers
   * report as an error in the console). Compressed here, once per build of the file.
   */
  const signedOutPages = new Map<string, { builtAt: number; plain: Buffer; br: Buffer; gzip: Buffer }>();
  const sendSignedOut = (request: FastifyRequest, reply: FastifyReply, page: string) => {
    const file = path.join(root, page);
    const builtAt = fs.statSync(file).mtimeMs;
    let variants = signedOutPages.get(page);
    if (variants?.builtAt !== builtAt) {
      const plain = Buffer.from(fs.readFileSync(file, 'utf8').replace(/<html\b/i, `$& ${SIGNED_OUT_ATTRIBUTE}`));
      const br = zlib.brotliCompressSync(plain, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } });
      variants = { builtAt, plain, br, gzip: zlib.gzipSync(plain, { level: 9 }) };
      signedOutPages.set(page, variants);
    }
    const accepted = String(request.headers['accept-encoding'] ?? '');
    const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : null;
    if (encoding) reply.header('Content-Encoding', encoding);
    return reply
      .header('Cache-Control', 'no-cache')
      .header('Vary', 'Accept-Encoding, Cookie')
      .type('text/html; charset=utf-8')
      .send(encoding ? variants[encoding] : variants.plain);
  };

  const sendIndex = (request: FastifyRequest, reply: FastifyReply, pathname = '/') => {
    const signIn = isPublicPage(pathname);
    const page = signIn ? publicPage(pathname) : 'index.html';
    // Checked per request: a rebuild during development empties the folder for a moment.
    if (!fs.existsSync(path.join(root, page))) {
      return reply.status(503).type('text/plain').send('The web client is not built. Run `npm run build`.');
    }
    if (signIn && !request.cookies[SESSION_COOKIE]) return sendSignedOut(request, reply, page);
    if (signIn) reply.header('Vary', 'Accept-Encoding, Cookie');
    return reply.header('Cache-Control', 'no-cache').type('text/html').sendFile(page, root, { cacheControl: false });
  };

  if (fs.existsSync(root)) {
    await app.register(fastifyStatic, {
      root,
      wildcard: true,
      index: false,
      cacheControl: false,
      preCompressed: true,
      // The build's .vite/manifest.json is for the size check, not for visitors.
      dotfiles: 'ignore',
      allowedPath: (pathname) => !PRIVATE_FILE.test(pathname),
      setHeaders: (res, filePath) => {
        const hashed = filePath.startsWith(path.join(root, 'assets') + path.sep);
        res.setHeader('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
        // The same address answers differently by Accept-Encoding: caches must keep them apart.
        res.setHeader('Vary', 'Accept-Encoding');
      },
    });
  }
  app.get('/', (request, reply) => sendIndex(request, reply));

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0];
    // HEAD is GET without the body: a page path answers it with index.html's headers, not a JSON 404.
    const read = request.method === 'GET' || request.method === 'HEAD';
    if (pathname.startsWith('/api/') || pathname === '/api' || !read) {
      return reply
        .status(404)
        .send({ error: { code: ERROR_CODES.notFound, message: `No route ${request.method} ${pathname}` } });
    }
    // A missing file (an old asset name, a typo) is a 404, not the application page.
    if (pathname.startsWith('/assets/') || /\.[a-z0-9]{1,8}$/i.test(pathname)) {
      return reply.status(404).type('text/plain').send('Not found');
    }
    return sendIndex(request, reply, pathname);
  });
}

export const spa = fp(spaPlugin, { name: 'spa' });
