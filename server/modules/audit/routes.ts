import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IdParam } from '../../../common/api/common';
import { ErrorBody } from '../../../common/api/errors';
import { LogExportQuery, LogList, LogQuery } from '../../../common/api/logs';
import { access, customerAccessOf } from '../../plugins/access';
import { actorOf } from '../../plugins/session';
import * as service from './service';

/** A customer's recent actions (spec section 2), for the roles that see its team (spec section 6, "Logs"). */
export async function auditRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['recent actions'];
  const rule = { access: access.customer('viewTeam', { from: 'params.id' }) };

  api.get(
    '/customers/:id/logs',
    {
      config: rule,
      schema: {
        operationId: 'listRecentActions',
        tags,
        summary: "One page of a customer's recent actions, newest first, optionally of one action",
        description: 'accountExecutive, admin, businessOwner, supportEngineer of the customer; 404 for no role there.',
        params: IdParam,
        querystring: LogQuery,
        response: { 200: LogList, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) =>
      service.listLogs(ctx, actorOf(request), { customerAccess: customerAccessOf(request), query: request.query }),
  );

  api.get(
    '/customers/:id/logs.csv',
    {
      config: rule,
      schema: {
        operationId: 'exportRecentActions',
        tags,
        summary: 'Every recent action of the filter as CSV (UTF-8 with BOM), streamed, newest first',
        description: 'Same access as the list. Cells a spreadsheet would read as a formula start with an apostrophe.',
        params: IdParam,
        querystring: LogExportQuery,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const { fileName, body } = service.exportLogs(ctx, actorOf(request), {
        customerAccess: customerAccessOf(request),
        query: request.query,
      });
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'no-store')
        .send(body);
    },
  );
}
