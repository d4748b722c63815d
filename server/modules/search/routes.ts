import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBody } from '../../../common/api/errors';
import { SearchQuery, SearchResults } from '../../../common/api/search';
import { access } from '../../plugins/access';
import { actorOf } from '../../plugins/session';
import * as service from './service';

/** The staff's search box (docs/decisions/079-staff-search.md). */
export async function searchRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  api.get(
    '/search',
    {
      // Staff of every type, an account executive included, whom no global capability names: the
      // service's policy refuses the others (search/policy.ts maySearch).
      config: { access: access.signedIn },
      schema: {
        operationId: 'search',
        tags: ['search'],
        summary: 'A few customers, users or members, licences, products and versions matching a text, for staff',
        description:
          '`q` (two characters or more) is plain text: customers by a part of their name or key, users (for ' +
          'admins) and members (for support engineers, and account executives in their own customers) by a part ' +
          'of their name or e-mail, licences by their number (`123` or `#123`), products by a part of their key ' +
          'or name, versions by the start of their semantic version, optionally after words of the product ' +
          '(`graph 2.1`). One to two characters match the start of customer and user names, keys and e-mails. ' +
          'At most `limit` results of each kind, each kind scoped as its own list is (an account executive ' +
          'finds only their customers and their people); grouped by kind. 403 for a client.',
        querystring: SearchQuery,
        response: { 200: SearchResults, 403: ErrorBody },
      },
    },
    async (request) => service.search(ctx, actorOf(request), request.query),
  );
}
