import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { parse as parseContentDisposition } from 'content-disposition';
import {
  Artifact,
  CreatedProductToken,
  CreateProductTokenBody,
  ProductKeyParam,
  ProductTokenList,
  ProductTokenParams,
  UploadArtifactQuery,
  VersionPlatformParams,
} from '../../../common/api/catalogue';
import { Ok } from '../../../common/api/common';
import { ErrorBody } from '../../../common/api/errors';
import { badRequest } from '../../http-error';
import { access, idFrom } from '../../plugins/access';
import { hasBody } from '../../plugins/bodies';
import { actorOf } from '../../plugins/session';
import { productOfVersion } from './repo';
import * as service from './service';
import * as tokens from './tokens';

/**
 * How long an upload's body may take (instead of BODY_TIMEOUT_MS): 10 GiB at 5 Mbit/s, with room.
 * Only a signed-in product manager or a product token reaches the body, so a slow one is not a cheap
 * way to hold connections.
 */
const UPLOAD_BODY_TIMEOUT_MS = 6 * 60 * 60 * 1000;

const manageVersions = access.can('manageVersions');

/**
 * Artifacts and product API tokens (docs/decisions/036): a product's tokens listed, created and
 * revoked; a version's artifact uploaded (by a product manager or a token of its product) or removed.
 */
export async function artifactRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['catalogue'];

  api.get(
    '/products/:key/tokens',
    {
      config: { access: manageVersions },
      schema: {
        operationId: 'listProductTokens',
        tags,
        summary: "A product's API tokens, newest first (the tokens themselves are never shown again)",
        params: ProductKeyParam,
        response: { 200: ProductTokenList, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => tokens.listTokens(ctx, actorOf(request), { productKey: request.params.key }),
  );

  api.post(
    '/products/:key/tokens',
    {
      config: { access: manageVersions, idempotent: true },
      schema: {
        operationId: 'createProductToken',
        tags,
        summary: 'Create an API token of the product, for uploading its artifacts from a release pipeline',
        description: 'The answer holds `token`, shown this once: only its hash is kept.',
        params: ProductKeyParam,
        body: CreateProductTokenBody,
        response: { 201: CreatedProductToken, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await tokens.createToken(ctx, actorOf(request), { productKey: request.params.key, body: request.body })),
  );

  api.delete(
    '/products/:key/tokens/:id',
    {
      config: { access: manageVersions },
      schema: {
        operationId: 'revokeProductToken',
        tags,
        summary: 'Revoke an API token: requests with it are refused from now on',
        params: ProductTokenParams,
        response: { 200: Ok, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      await tokens.revokeToken(ctx, actorOf(request), { productKey: request.params.key, id: request.params.id });
      return { ok: true as const };
    },
  );

  api.delete(
    '/versions/:id/artifacts/:platform',
    {
      config: { access: manageVersions },
      schema: {
        operationId: 'deleteArtifact',
        tags,
        summary: "Remove an unpublished version's artifact of a platform",
        params: VersionPlatformParams,
        response: { 200: Ok, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => {
      await service.deleteArtifact(ctx, actorOf(request), {
        versionId: request.params.id,
        platform: request.params.platform,
      });
      return { ok: true as const };
    },
  );

  await app.register(uploadRoute);
}

/** The file name a request gives: `?fileName=`, else its Content-Disposition's; null for the default. */
function fileNameOf(query: { fileName?: string }, header: string | undefined): string | null {
  if (query.fileName !== undefined) return service.checkFileName(query.fileName);
  if (!header) return null;
  let name: string | undefined;
  try {
    name = parseContentDisposition(header).parameters.filename;
  } catch {
    throw badRequest('Content-Disposition: not a valid header (attachment; filename="…")');
  }
  return name === undefined ? null : service.checkFileName(name);
}

/**
 * The upload, in a context of its own: whatever its Content-Type, the body reaches the handler as
 * the request's stream (nothing parses or buffers it), and the storage reads it at its pace.
 */
async function uploadRoute(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  api.put(
    '/versions/:id/artifacts/:platform',
    {
      config: {
        access: access.capabilityOrProductToken('manageVersions', (context, request) =>
          productOfVersion(context.db, idFrom(request, 'params.id')),
        ),
        bodyTimeoutMs: UPLOAD_BODY_TIMEOUT_MS,
        // the body is read as a stream, which no schema validates: the document says what it is
        document: {
          requestBody: {
            description: 'The file, as is (any Content-Type); its name from ?fileName= or Content-Disposition',
            mediaType: 'application/octet-stream',
          },
        },
      },
      schema: {
        operationId: 'uploadArtifact',
        tags: ['catalogue'],
        summary: "Upload a version's artifact of a platform (replacing the previous one), e.g. with curl -T",
        description:
          "The body is the file. Allowed to product managers and admins, and to `Authorization: Bearer <token>` with an API token of the version's product. The version must not be published (409). Larger than ARTIFACT_MAX_BYTES: 413. The storage full (no space left, or its quota used up): 507 `storage_full`, nothing stored. The size and sha256 are computed while the file streams to storage.",
        params: VersionPlatformParams,
        querystring: UploadArtifactQuery,
        response: {
          200: Artifact,
          400: ErrorBody,
          401: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
          409: ErrorBody,
          413: ErrorBody,
          507: ErrorBody,
        },
      },
    },
    async (request) => {
      const maxBytes = ctx.config.artifactMaxBytes;
      const length = Number(request.headers['content-length']);
      if (Number.isFinite(length) && length > maxBytes) throw service.tooLarge(maxBytes);
      if (!hasBody(request) || !request.body) throw badRequest('Send the file as the request body');
      const fileName = fileNameOf(request.query, request.headers['content-disposition']);
      return service.uploadArtifact(ctx, actorOf(request), {
        versionId: request.params.id,
        platform: request.params.platform,
        fileName,
        body: request.body as Readable,
      });
    },
  );
}
