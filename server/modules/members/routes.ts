import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IdParam } from '../../../common/api/common';
import { ErrorBody } from '../../../common/api/errors';
import { Member, MemberList, MemberListQuery, UpdateMemberStatusBody } from '../../../common/api/members';
import { access, customerAccessOf, idFrom } from '../../plugins/access';
import { actorOf } from '../../plugins/session';
import { customerOfMembership } from './repo';
import * as service from './service';

/** Members of a customer (spec section 7: GET /customers/{id}/members, PATCH /members/{id}/status). */
export async function memberRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['members'];

  api.get(
    '/customers/:id/members',
    {
      config: { access: access.customer('viewTeam', { from: 'params.id' }) },
      schema: {
        operationId: 'listMembers',
        tags,
        summary: 'The members of a customer, enabled and disabled, by full name or e-mail address',
        description:
          'Every member unless pageLength is given; filter keeps those whose full name or e-mail address contains it, whatever the case; total counts every match.',
        params: IdParam,
        querystring: MemberListQuery,
        response: { 200: MemberList, 404: ErrorBody },
      },
    },
    async (request) =>
      service.listMembers(ctx, actorOf(request), {
        customerAccess: customerAccessOf(request),
        query: request.query,
      }),
  );

  api.patch(
    '/members/:id/status',
    {
      config: {
        access: access.customer('viewTeam', {
          load: ({ db }, request) => customerOfMembership(db, idFrom(request, 'params.id')),
        }),
      },
      schema: {
        operationId: 'setMemberStatus',
        tags,
        summary: 'Enable or disable a member; nobody changes their own membership (403)',
        params: IdParam,
        body: UpdateMemberStatusBody,
        response: { 200: Member, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) =>
      service.updateMemberStatus(ctx, actorOf(request), {
        customerAccess: customerAccessOf(request),
        id: request.params.id,
        body: request.body,
      }),
  );
}
