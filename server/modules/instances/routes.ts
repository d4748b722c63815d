import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IdParam } from '../../../common/api/common';
import { ErrorBody } from '../../../common/api/errors';
import { Instance, InstanceCallbackAnswer, InstanceList, InstanceListQuery } from '../../../common/api/instances';
import { integrationActor } from '../../actor';
import { ORCHESTRATOR_SIGNATURE_HEADER } from '../../integrations/provisioner/http';
import { access, customerAccessOf, idFrom } from '../../plugins/access';
import { actorOf } from '../../plugins/session';
import { receiveCallback } from './callback';
import { customerOfInstance } from './repo';
import * as service from './service';

/**
 * Cloud instances (spec section 7: GET /customers/{id}/instances; docs/instances.md): the list every
 * role of the customer reads, the staff's archive and restore, and the orchestrator's callback.
 */
export async function instanceRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['cloud instances'];
  const manageInstance = access.customer('manageInstances', {
    load: ({ db }, request) => customerOfInstance(db, idFrom(request, 'params.id')),
  });

  api.get(
    '/customers/:id/instances',
    {
      config: { access: access.customer('viewCustomer', { from: 'params.id' }) },
      schema: {
        operationId: 'listInstances',
        tags,
        summary: "A customer's cloud instances, oldest first, ten at a time unless pageLength is given",
        description:
          'Each carries its address only while it is provisioned, and its logs address only for the roles that see them.',
        params: IdParam,
        querystring: InstanceListQuery,
        response: { 200: InstanceList, 404: ErrorBody },
      },
    },
    async (request) =>
      service.listInstances(ctx, actorOf(request), { customerAccess: customerAccessOf(request), query: request.query }),
  );

  api.post(
    '/instances/:id/archive',
    {
      config: { access: manageInstance },
      schema: {
        operationId: 'archiveInstance',
        tags,
        summary: 'Archive a provisioned instance: it stops answering, and its data is deleted after its delay',
        description: 'An instance that is not provisioned answers 409.',
        params: IdParam,
        response: { 200: Instance, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) =>
      service.archiveInstance(ctx, actorOf(request), {
        customerAccess: customerAccessOf(request),
        id: request.params.id,
      }),
  );

  api.post(
    '/instances/:id/restore',
    {
      config: { access: manageInstance },
      schema: {
        operationId: 'restoreInstance',
        tags,
        summary: 'Restore an archived instance before its data is deleted',
        description: 'An instance that is not archived answers 409.',
        params: IdParam,
        response: { 200: Instance, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) =>
      service.restoreInstance(ctx, actorOf(request), {
        customerAccess: customerAccessOf(request),
        id: request.params.id,
      }),
  );

  api.post(
    '/instances/callback',
    {
      // the signature is the access rule: checked on the raw bytes before anything else
      config: {
        access: access.public,
        webhook: true,
        document: {
          requestBody: {
            mediaType: 'application/json',
            description:
              '`{ id, instanceId, status, url?, error? }` (docs/instances.md), signed in the `Portal-Signature` header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" under INSTANCE_ORCHESTRATOR_SECRET>`.',
          },
        },
      },
      schema: {
        operationId: 'instanceCallback',
        tags,
        summary: 'The orchestrator reports a step of an instance (machine only: a signature, no session)',
        description:
          'A signature older than five minutes, or wrong, answers 401; an event id seen before changes nothing; a step the instance cannot take answers 409.',
        response: { 200: InstanceCallbackAnswer, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => {
      // a header given twice arrives as an array: no signature
      const signature = request.headers[ORCHESTRATOR_SIGNATURE_HEADER.toLowerCase()];
      return receiveCallback(ctx, integrationActor('provisioner'), {
        rawBody: Buffer.isBuffer(request.body) ? request.body : undefined,
        signature: typeof signature === 'string' ? signature : undefined,
      });
    },
  );
}
