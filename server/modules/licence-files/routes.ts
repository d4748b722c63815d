import contentDisposition from 'content-disposition';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBody } from '../../../common/api/errors';
import {
  LicenceFile,
  LicenceFileParams,
  LicenceFileQuery,
  LicenceSigningKeyList,
} from '../../../common/api/licence-files';
import { access, customerAccessOf } from '../../plugins/access';
import { actorOf } from '../../plugins/session';
import { licenceFile } from './licence-file';
import * as service from './service';

/**
 * How long verifiers and proxies may keep the key list. A new key signs right after a rotation, so a
 * verifier that meets an unknown key id fetches the list again (docs/licence-files.md).
 */
export const KEYS_CACHE_CONTROL = 'public, max-age=300';

/**
 * `attachment` with the file's name (RFC 6266): an ASCII name as is; any other in `filename*` (UTF-8),
 * after an ASCII `filename` for older clients (accents dropped, other characters as "_").
 */
export function attachment(fileName: string): string {
  const ascii = fileName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '_');
  return contentDisposition(fileName, { fallback: ascii });
}

/** Signed licence files and the public keys that verify them (docs/licence-files.md). */
export async function licenceFileRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  api.get(
    '/licence-files/keys',
    {
      config: { access: access.public },
      schema: {
        operationId: 'listLicenceSigningKeys',
        tags: ['licence-files'],
        summary: 'The public keys that verify licence files: the active one first, then the retired ones',
        description:
          'Ed25519 keys, PEM SubjectPublicKeyInfo. A retired key signs no more but stays published, so that the files it signed still verify.',
        response: { 200: LicenceSigningKeyList },
      },
      // after the API's own `no-store` (plugins/security.ts): the list is public and changes rarely
      onSend: async (_request, reply) => {
        if (reply.statusCode === 200) reply.header('Cache-Control', KEYS_CACHE_CONTROL);
      },
    },
    async (request) => service.listPublishedKeys(ctx, actorOf(request)),
  );

  api.get(
    '/download/license/:productKey',
    {
      config: { access: access.customer('download', { from: 'query.customerId' }) },
      schema: {
        operationId: 'downloadLicenceFile',
        tags: ['downloads'],
        summary: "The signed licence file of the customer's licence of a product, as an attachment",
        description:
          "404 when the customer has no licence of the product; 403 `licence_expired` when the licence's grace period is over. The download is recorded in the customer's recent actions.",
        params: LicenceFileParams,
        querystring: LicenceFileQuery,
        response: { 200: LicenceFile, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const { file, fileName } = await licenceFile(ctx, actorOf(request), {
        customerAccess: customerAccessOf(request),
        productKey: request.params.productKey,
      });
      return reply.header('Content-Disposition', attachment(fileName)).send(file);
    },
  );
}
