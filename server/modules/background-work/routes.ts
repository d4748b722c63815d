import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBody } from '../../../common/api/errors';
import { FailedJobList, FailedJobParams, FailedJobQuery, JobCountsList } from '../../../common/api/jobs';
import { access } from '../../plugins/access';
import { actorOf } from '../../plugins/session';
import * as service from './service';

/** 204 without a body: the only success of the actions, which no response schema describes (the document says it). */
const noContent = (reply: FastifyReply) => reply.status(204).send();

/** The Background work page (docs/decisions/062, "Operators"; the engine: 063): the job engine's work, admins only. */
export async function backgroundWorkRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const rule = { access: access.can('manageBackgroundWork') };
  const tags = ['background work'];
  const done = (what: string) => ({ document: { responses: { 204: { description: what } } } });

  api.get(
    '/jobs',
    {
      config: rule,
      schema: {
        operationId: 'listJobCounts',
        tags,
        summary: 'Every kind of background work and schedule, with its jobs by state',
        description:
          'One row per declared name, those without any job included: `queued` (waiting, or failed and ' +
          'waiting to be retried), `active` (running), `failed` (every attempt failed) and `completed`. ' +
          'Completed jobs are kept 7 days and failed ones 30.',
        response: { 200: JobCountsList },
      },
    },
    async (request) => service.listJobCounts(ctx, actorOf(request)),
  );

  api.get(
    '/jobs/failed',
    {
      config: rule,
      schema: {
        operationId: 'listFailedJobs',
        tags,
        summary: 'One page of the failed jobs, newest failure first, optionally of one name',
        description:
          'Each with its last error, the attempts made and a summary of its payload (values under keys ' +
          'that may hold a secret are redacted). A name that is not declared lists nothing.',
        querystring: FailedJobQuery,
        response: { 200: FailedJobList },
      },
    },
    async (request) => service.listFailedJobs(ctx, actorOf(request), request.query),
  );

  api.post(
    '/jobs/:name/:id/retry',
    {
      config: { ...rule, ...done('Queued again, with a fresh set of attempts') },
      schema: {
        operationId: 'retryFailedJob',
        tags,
        summary: 'Queue a failed job again, with a fresh set of attempts',
        description: 'It runs as soon as a node fetches it. 404 when the job is not (or no longer) failed.',
        params: FailedJobParams,
        response: { 404: ErrorBody },
      },
    },
    async (request, reply) => {
      await service.retryFailedJob(ctx, actorOf(request), request.params);
      return noContent(reply);
    },
  );

  api.post(
    '/jobs/:name/:id/discard',
    {
      config: { ...rule, ...done('Deleted') },
      schema: {
        operationId: 'discardFailedJob',
        tags,
        summary: 'Delete a failed job, which will not run again',
        description:
          'What its last failure did (a mail marked undeliverable) stays. 404 when the job is not (or no longer) failed.',
        params: FailedJobParams,
        response: { 404: ErrorBody },
      },
    },
    async (request, reply) => {
      await service.discardFailedJob(ctx, actorOf(request), request.params);
      return noContent(reply);
    },
  );
}
