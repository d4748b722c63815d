import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DownloadAnalytics, DownloadAnalyticsQuery } from '../../../common/api/analytics';
import { ErrorBody } from '../../../common/api/errors';
import { access } from '../../plugins/access';
import { actorOf } from '../../plugins/session';
import * as service from './service';

/** Download analytics for product managers and admins (docs/decisions/039). */
export async function analyticsRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  api.get(
    '/analytics/downloads',
    {
      config: { access: access.can('viewDownloadAnalytics') },
      schema: {
        operationId: 'getDownloadAnalytics',
        tags: ['analytics'],
        summary: 'Downloads of a range of UTC days (the last 90 by default, at most 366): series and tables',
        description:
          'Per day by product, version and platform; the top customers; customers’ first downloads of a product; and, now, the share of each product’s customers whose latest download is its latest release.',
        querystring: DownloadAnalyticsQuery,
        response: { 200: DownloadAnalytics, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (request) => service.downloadAnalytics(ctx, actorOf(request), request.query),
  );
}
