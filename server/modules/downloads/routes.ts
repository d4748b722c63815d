import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  DownloadCheck,
  DownloadQuery,
  PlatformParam,
  SecretDownloadParams,
  SecretDownloadQuery,
  SecretSumsParams,
  VersionFeedParams,
} from '../../../common/api/catalogue';
import { ERROR_CODES } from '../../../common/api/errors';
import { errorResponses, HttpError, notFound } from '../../http-error';
import { access, customerAccessOf } from '../../plugins/access';
import { actorOf } from '../../plugins/session';
import { pageLocale } from '../oidc/pages';
import { ATOM_TYPE, FEED_LENGTH, SUMS_TYPE } from './feed';
import { DOWNLOAD_CACHE_CONTROL, noneMatch, sendArtifact, single } from './serve';
import * as service from './service';

/** A text answer (the feed, the checksums): as it is, beside the routes' JSON error bodies. */
const sendText = (reply: FastifyReply, type: string, text: string) => reply.type(type).send(text);
const notModified = (reply: FastifyReply) => reply.status(304).send();

const TOO_MANY_WRONG_SECRETS = 'Too many wrong download secrets from this address; try again later';

/**
 * Downloads of artifacts (docs/decisions/038): by a signed-in member of the customer, and by the
 * licence's secret URL for scripts. Both answer through sendArtifact and record what they serve.
 * By the same secret, a version's checksums and the licence's feed of versions (docs/decisions/080).
 */
export async function downloadRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['downloads'];

  // the API's `no-store` (plugins/security.ts) gives way for the file and its revalidation only
  const fileCacheControl = async (_request: FastifyRequest, reply: FastifyReply) => {
    if ([200, 206, 304].includes(reply.statusCode) && reply.hasHeader('ETag')) {
      reply.header('Cache-Control', DOWNLOAD_CACHE_CONTROL);
    }
  };

  /** The file's digest, on every answer about it (docs/decisions/080). */
  const digest = {
    'Repr-Digest': {
      description:
        "RFC 9530: the sha256 of the whole file (`sha-256=:<base64>:`), the same as the version's SHA256SUMS",
      schema: { type: 'string' },
    },
  };
  /** What the document says of the file answers, which sendArtifact writes itself (docs/decisions/058). */
  const file = {
    responses: {
      200: {
        description: 'The file (Content-Disposition: attachment, ETag, Accept-Ranges)',
        bytes: 'application/octet-stream',
        headers: digest,
      },
      206: {
        description: 'The part the Range asked for (Content-Range)',
        bytes: 'application/octet-stream',
        headers: digest,
      },
      302: {
        description: 'With S3 storage: to a short-lived presigned URL of the file',
        headers: {
          Location: { description: 'The presigned URL', schema: { type: 'string', format: 'uri' } },
          ...digest,
        },
      },
      304: { description: 'Not modified (If-None-Match names the current ETag)', headers: digest },
    },
  };

  api.get(
    '/download/:platform',
    {
      config: { access: access.customer('download', { from: 'query.customerId' }), document: file },
      // the bytes go as stored: an artifact is compressed already, and a Range counts stored bytes
      compress: false,
      onSend: fileCacheControl,
      schema: {
        operationId: 'downloadArtifact',
        tags,
        summary: 'An artifact of a version the customer may download, or with `check`, whether it may',
        description:
          "The customer must hold a licence of the version's product that allows downloads and the version's type; the version must be published and have an artifact for the platform. Anything else is 404; a licence past its grace period is 403 `licence_expired`. Supports Range (206, 416), If-Range, ETag and If-None-Match (304). With S3 storage, a 302 to a short-lived URL.",
        params: PlatformParam,
        querystring: DownloadQuery,
        response: { 200: DownloadCheck, ...errorResponses(400, 401, 403, 404, 416) },
      },
    },
    async (request, reply) => {
      const grant = await service.authorizeDownload(ctx, actorOf(request), {
        customerAccess: customerAccessOf(request),
        platform: request.params.platform,
        versionId: request.query.versionId,
      });
      if (request.query.check !== undefined) return { ok: true as const };
      return sendArtifact(ctx, request, reply, grant.artifact, () =>
        service.recordServedDownload(ctx, actorOf(request), { grant }),
      );
    },
  );

  const { downloadSecret: perMinute } = ctx.config.rateLimits;
  const wrongSecrets = perMinute > 0 ? app.createRateLimit({ max: perMinute, timeWindow: 60_000 }) : null;

  /** An address past its count of wrong secrets gets 429, whatever secret it sends, until the minute is over. */
  const holdBackWrongSecrets = async (request: FastifyRequest) => {
    if (!wrongSecrets) return;
    const state = await wrongSecrets(request, { increment: false });
    if (!state.isAllowed && state.remaining <= 0) {
      throw new HttpError(429, ERROR_CODES.rateLimited, TOO_MANY_WRONG_SECRETS, undefined, {
        'Retry-After': String(Math.max(1, state.ttlInSeconds)),
      });
    }
  };

  /** A secret that names no licence: counted against the address, answered with the one 404. */
  const wrongSecret = async (request: FastifyRequest): Promise<never> => {
    await wrongSecrets?.(request);
    throw notFound(service.DOWNLOAD_NOT_FOUND);
  };

  api.get(
    '/get/:platform/:productKey/:semVer',
    {
      config: { access: access.public, document: file },
      compress: false,
      onSend: fileCacheControl,
      schema: {
        operationId: 'downloadArtifactBySecret',
        tags,
        summary: "An artifact by the licence's download secret, for scripts (no session)",
        description:
          'semVer is a version or `latest` (the newest published version the licence allows with an artifact for the platform). A wrong secret, another product or anything not allowed is 404; a licence past its grace period is 403 `licence_expired`. Wrong secrets are limited per address (429). Same Range and ETag support as /download/{platform}.',
        params: SecretDownloadParams,
        querystring: SecretDownloadQuery,
        response: errorResponses(400, 403, 404, 416, 429),
      },
    },
    async (request, reply) => {
      await holdBackWrongSecrets(request);
      const grant = await service.authorizeSecretDownload(ctx, actorOf(request), {
        platform: request.params.platform,
        productKey: request.params.productKey,
        semVer: request.params.semVer,
        secret: request.query.secret,
      });
      if (!grant) return wrongSecret(request);
      return sendArtifact(ctx, request, reply, grant.artifact, () =>
        service.recordServedDownload(ctx, actorOf(request), { grant }),
      );
    },
  );

  // the version's checksums and the licence's feed (docs/decisions/080): the same secret, the same count of wrong ones
  api.get(
    '/get/sums/:productKey/:semVer',
    {
      config: {
        access: access.public,
        document: {
          responses: {
            200: {
              description: 'The `SHA256SUMS` text: `<sha256 in hex>  <file name>` per file of the version',
              bytes: 'text/plain',
            },
          },
        },
      },
      schema: {
        operationId: 'versionChecksums',
        tags,
        summary: "A version's checksums as `SHA256SUMS`, by the licence's download secret (for `sha256sum -c`)",
        description:
          'One line per file of the version the secret URL serves, in the format `sha256sum -c` reads. semVer is a version or `latest` (the newest published version the licence allows that has a file). The same rules as the files: a wrong secret, another product or a version not allowed is 404, a licence past its grace period 403 `licence_expired`, wrong secrets are limited per address (429).',
        params: SecretSumsParams,
        querystring: SecretDownloadQuery,
        response: errorResponses(400, 403, 404, 429),
      },
    },
    async (request, reply) => {
      await holdBackWrongSecrets(request);
      const sums = await service.versionSums(ctx, actorOf(request), {
        productKey: request.params.productKey,
        semVer: request.params.semVer,
        secret: request.query.secret,
      });
      if (sums === null) return wrongSecret(request);
      return sendText(reply, SUMS_TYPE, sums);
    },
  );

  api.get(
    '/feeds/:productKey.atom',
    {
      config: {
        access: access.public,
        document: {
          responses: {
            200: {
              description: 'The Atom feed (RFC 4287), with a weak ETag',
              bytes: 'application/atom+xml',
            },
            304: { description: 'Not modified (If-None-Match names the current ETag)' },
          },
        },
      },
      onSend: fileCacheControl,
      schema: {
        operationId: 'versionFeed',
        tags,
        summary:
          'An Atom feed of the versions the licence allows, by its download secret (for feed readers and robots)',
        description:
          `The newest published versions the licence's access level opens (at most ${FEED_LENGTH}), newest first:` +
          " each entry with the title, the release date (`published`), the last change (`updated`), the rendered notes (`content`, HTML), the type (`category`), a link per file (`enclosure`, the secret download URL) and to its checksums (`related`). `ETag` and `If-None-Match` (304). In English or French after Accept-Language. A wrong secret or another product is 404; rotating the licence's secret ends the old address; a licence past its grace period is 403 `licence_expired`; wrong secrets are limited per address (429).",
        params: VersionFeedParams,
        querystring: SecretDownloadQuery,
        response: errorResponses(400, 403, 404, 429),
      },
    },
    async (request, reply) => {
      await holdBackWrongSecrets(request);
      const feed = await service.versionFeed(ctx, actorOf(request), {
        productKey: request.params.productKey,
        secret: request.query.secret,
        locale: pageLocale(undefined, request.headers['accept-language']),
      });
      if (feed === null) return wrongSecret(request);
      // a 304 names what the 200 varies on too, compression included
      reply.header('ETag', feed.etag).header('Vary', 'Accept-Language, Accept-Encoding');
      const unchanged = noneMatch(single(request.headers['if-none-match']), feed.etag.replace(/^W\//, ''));
      return unchanged ? notModified(reply) : sendText(reply, ATOM_TYPE, feed.xml);
    },
  );
}
