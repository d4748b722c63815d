import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  DownloadCheck,
  DownloadQuery,
  PlatformParam,
  SecretDownloadParams,
  SecretDownloadQuery,
} from '../../../common/api/catalogue';
import { ERROR_CODES } from '../../../common/api/errors';
import { errorResponses, HttpError, notFound } from '../../http-error';
import { access, customerAccessOf } from '../../plugins/access';
import { actorOf } from '../../plugins/session';
import { DOWNLOAD_CACHE_CONTROL, sendArtifact } from './serve';
import * as service from './service';

const TOO_MANY_WRONG_SECRETS = 'Too many wrong download secrets from this address; try again later';

/**
 * Downloads of artifacts (docs/decisions/038): by a signed-in member of the customer, and by the
 * licence's secret URL for scripts. Both answer through sendArtifact and record what they serve.
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

  /** What the document says of the file answers, which sendArtifact writes itself (docs/decisions/058). */
  const file = {
    responses: {
      200: {
        description: 'The file (Content-Disposition: attachment, ETag, Accept-Ranges)',
        bytes: 'application/octet-stream',
      },
      206: { description: 'The part the Range asked for (Content-Range)', bytes: 'application/octet-stream' },
      302: {
        description: 'With S3 storage: to a short-lived presigned URL of the file',
        headers: { Location: { description: 'The presigned URL', schema: { type: 'string', format: 'uri' } } },
      },
      304: { description: 'Not modified (If-None-Match names the current ETag)' },
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
      if (wrongSecrets) {
        const state = await wrongSecrets(request, { increment: false });
        if (!state.isAllowed && state.remaining <= 0) {
          throw new HttpError(429, ERROR_CODES.rateLimited, TOO_MANY_WRONG_SECRETS, undefined, {
            'Retry-After': String(Math.max(1, state.ttlInSeconds)),
          });
        }
      }
      const grant = await service.authorizeSecretDownload(ctx, actorOf(request), {
        platform: request.params.platform,
        productKey: request.params.productKey,
        semVer: request.params.semVer,
        secret: request.query.secret,
      });
      if (!grant) {
        await wrongSecrets?.(request);
        throw notFound(service.DOWNLOAD_NOT_FOUND);
      }
      return sendArtifact(ctx, request, reply, grant.artifact, () =>
        service.recordServedDownload(ctx, actorOf(request), { grant }),
      );
    },
  );
}
