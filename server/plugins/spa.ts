import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Profile } from '../../common/api/auth';
import { PROFILE_ELEMENT_ID, SESSION_COOKIE, SIGNED_OUT_ATTRIBUTE } from '../../common/constants';
import { ERROR_CODES } from '../../common/api/errors';
import { isPublicPage } from '../../common/public-pages';
import { me } from '../modules/auth/service';
import { resolveSession } from '../modules/sessions/service';
import { notFound } from '../http-error';
import { hasBody } from './bodies';
import { manifestReader, preloadLinks } from './page-hints';
import { actorOf, setSessionCookie } from './session';

const noRouteMessage = (request: FastifyRequest) => `No route ${request.method} ${request.url.split('?')[0]}`;

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
  const manifest = manifestReader(root);

  /** The sign-in page's own HTML: pre-rendered for its language when the build made it, else public.html. */
  const publicPage = (pathname: string) => {
    const prerendered = path.join('prerendered', `${pathname.replace(/\/$/, '')}.html`);
    return fs.existsSync(path.join(root, prerendered)) ? prerendered : 'public.html';
  };

  /** A page's HTML, read once per build of the file. */
  const pageTexts = new Map<string, { builtAt: number; html: string }>();
  const readPage = (page: string): string => {
    const file = path.join(root, page);
    const builtAt = fs.statSync(file).mtimeMs;
    let text = pageTexts.get(page);
    if (text?.builtAt !== builtAt) {
      text = { builtAt, html: fs.readFileSync(file, 'utf8') };
      pageTexts.set(page, text);
    }
    return text.html;
  };

  const encodingFor = (request: FastifyRequest) => {
    const accepted = String(request.headers['accept-encoding'] ?? '');
    return /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : null;
  };

  /** HTML that differs by visitor: compressed as the API's answers are (plugins/compression.ts), never shared. */
  const sendPersonal = (request: FastifyRequest, reply: FastifyReply, html: string) => {
    const plain = Buffer.from(html);
    const encoding = encodingFor(request);
    if (encoding) reply.header('Content-Encoding', encoding);
    const body =
      encoding === 'br'
        ? zlib.brotliCompressSync(plain, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } })
        : encoding === 'gzip'
          ? zlib.gzipSync(plain, { level: 6 })
          : plain;
    return reply
      .header('Cache-Control', 'private, no-cache')
      .header('Vary', 'Accept-Encoding, Cookie')
      .type('text/html; charset=utf-8')
      .send(body);
  };

  /**
   * A page for a visitor without a session: marked so on its <html> element, the page does not ask
   * the API who the visitor is, whose answer could only be a 401 (which browsers report as an error
   * in the console). Compressed here, once per build of the file.
   */
  const signedOutPages = new Map<string, { html: string; plain: Buffer; br: Buffer; gzip: Buffer }>();
  const sendSignedOut = (request: FastifyRequest, reply: FastifyReply, page: string) => {
    const html = readPage(page);
    let variants = signedOutPages.get(page);
    if (variants?.html !== html) {
      const plain = Buffer.from(html.replace(/<html\b/i, `$& ${SIGNED_OUT_ATTRIBUTE}`));
      const br = zlib.brotliCompressSync(plain, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } });
      variants = { html, plain, br, gzip: zlib.gzipSync(plain, { level: 9 }) };
      signedOutPages.set(page, variants);
    }
    const encoding = encodingFor(request);
    if (encoding) reply.header('Content-Encoding', encoding);
    return reply
      .header('Cache-Control', 'no-cache')
      .header('Vary', 'Accept-Encoding, Cookie')
      .type('text/html; charset=utf-8')
      .send(encoding ? variants[encoding] : variants.plain);
  };

  /**
   * Who sends this session cookie, as GET /api/auth/me would answer: the application's page carries
   * it, so that its first render does not wait for a round trip to ask. Null for a session that has
   * ended; undefined when it cannot be told now (the database is away): the page then asks itself.
   */
  const profileOf = async (request: FastifyRequest, reply: FastifyReply, raw: string) => {
    try {
      const session = await resolveSession(app.ctx, raw);
      if (!session) return null;
      if (session.touched) setSessionCookie(reply, app.ctx.config, raw, session.remainingMs);
      const actor = actorOf(Object.assign(request, { user: session.user, sessionHash: session.hash }));
      return Profile.parse(await me(app.ctx, actor));
    } catch (error) {
      request.log.warn({ err: error }, 'the page is sent without the profile');
      return undefined;
    }
  };

  const sendIndex = async (request: FastifyRequest, reply: FastifyReply, pathname = '/') => {
    const signIn = isPublicPage(pathname);
    // SELF_SERVICE_SIGNUP off: the sign-up page is not found, and says so (not its pre-rendered form)
    const unoffered = signIn && !app.ctx.config.selfServiceSignup && /^\/[a-z]{2}\/sign-up\/?$/.test(pathname);
    if (unoffered) reply.status(404);
    const page = signIn ? (unoffered ? 'public.html' : publicPage(pathname)) : 'index.html';
    // Checked per request: a rebuild during development empties the folder for a moment.
    if (!fs.existsSync(path.join(root, page))) {
      return reply.status(503).type('text/plain').send('The web client is not built. Run `npm run build`.');
    }
    const cookie = request.cookies[SESSION_COOKIE];
    if (!cookie) return sendSignedOut(request, reply, page);
    const profile = await profileOf(request, reply, cookie);
    if (profile === null) return sendSignedOut(request, reply, page);
    // The sign-in pages ask for the profile themselves: the few signed-in visitors who open one are sent on.
    if (profile && !signIn) {
      // JSON in a script element that is never run (so the CSP is not concerned); "<" escaped so
      // that no text in it can close the element.
      const json = JSON.stringify(profile).replace(/</g, '\\u003c');
      const script = `<script type="application/json" id="${PROFILE_ELEMENT_ID}">${json}</script>`;
      const links = preloadLinks(manifest(), pathname);
      const head = links ? `${links}\n    ${script}` : script;
      return sendPersonal(request, reply, readPage(page).replace('</head>', `${head}\n  </head>`));
    }
    reply.header('Vary', 'Accept-Encoding, Cookie');
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

  // A request with a body to no route is answered before its body is read (plugins/timeouts.ts then
  // closes the connection), not after the whole of it has arrived for nothing.
  app.addHook('onRequest', async (request) => {
    if (request.is404 && hasBody(request)) throw notFound(noRouteMessage(request));
  });

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0];
    // HEAD is GET without the body: a page path answers it with index.html's headers, not a JSON 404.
    const read = request.method === 'GET' || request.method === 'HEAD';
    if (pathname.startsWith('/api/') || pathname === '/api' || !read) {
      return reply.status(404).send({ error: { code: ERROR_CODES.notFound, message: noRouteMessage(request) } });
    }
    // A missing file (an old asset name, a typo) is a 404, not the application page.
    if (pathname.startsWith('/assets/') || /\.[a-z0-9]{1,8}$/i.test(pathname)) {
      return reply.status(404).type('text/plain').send('Not found');
    }
    return sendIndex(request, reply, pathname);
  });
}

export const spa = fp(spaPlugin, { name: 'spa' });
