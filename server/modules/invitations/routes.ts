import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IdParam, Ok } from '../../../common/api/common';
import { ErrorBody } from '../../../common/api/errors';
import {
  CreateInvitationBody,
  Invitation,
  InvitationLink,
  InvitationList,
  InvitationListQuery,
} from '../../../common/api/invitations';
import { type CustomerCapability } from '../../../common/permissions';
import { access, customerAccessIfGiven, customerAccessOf, idFrom } from '../../plugins/access';
import { actorOf } from '../../plugins/session';
import { customerOfInvitation } from './repo';
import * as service from './service';

/** The invitation a route's path names decides its customer. */
const ofInvitation = (capability: CustomerCapability) =>
  access.customer(capability, { load: ({ db }, request) => customerOfInvitation(db, idFrom(request, 'params.id')) });

/**
 * Managing invitations (spec section 7): list, invite, resend, cancel, copy the link. Accepting one
 * by its key is in accept.ts.
 */
export async function invitationRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['invitations'];

  api.get(
    '/invitations',
    {
      config: { access: access.customerIfGiven('viewTeam', 'query.customerId') },
      schema: {
        operationId: 'listInvitations',
        tags,
        summary: 'Pending invitations, expired ones included (status expired), newest first',
        description:
          "With customerId, that customer's (every one unless pageLength is given). Without it, those of every customer where the caller sees the team (every customer for admins and support engineers, their own for account executives and business owners, none for the other roles), ten at a time unless pageLength is given. An admin also gets the key and the invitationLink of each invitation whose link works (not an expired one); other roles never do.",
        querystring: InvitationListQuery,
        response: { 200: InvitationList, 404: ErrorBody },
      },
    },
    async (request) =>
      service.listInvitations(ctx, actorOf(request), {
        customerAccess: customerAccessIfGiven(request),
        query: request.query,
      }),
  );

  api.post(
    '/invitations',
    {
      config: { access: access.customer('viewTeam', { from: 'body.targetCustomer' }), idempotent: true },
      schema: {
        operationId: 'createInvitation',
        tags,
        summary: 'Invite someone to a customer; they receive a mail with the link (valid 7 days)',
        description:
          'The role must be one the caller may offer (spec section 6); only an account executive or an admin may give a locale. The answer carries the key and the invitationLink to an admin only.',
        body: CreateInvitationBody,
        response: { 201: Invitation, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request, reply) =>
      reply.status(201).send(
        await service.createInvitation(ctx, actorOf(request), {
          customerAccess: customerAccessOf(request),
          body: request.body,
        }),
      ),
  );

  api.get(
    '/invitations/:id/link',
    {
      config: { access: ofInvitation('copyInvitationLink') },
      schema: {
        operationId: 'getInvitationLink',
        tags,
        summary: 'The link the invitation mail carries (admins); not for an expired invitation (409)',
        params: IdParam,
        response: { 200: InvitationLink, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) =>
      service.getInvitationLink(ctx, actorOf(request), {
        customerAccess: customerAccessOf(request),
        id: request.params.id,
      }),
  );

  api.delete(
    '/invitations/:id',
    {
      config: {
        access: ofInvitation('viewTeam'),
        // one template with GET /api/invitations/:key (by key, public) in the OpenAPI document
        document: { renameParams: { id: { as: 'invitation', description: "The invitation's id" } } },
      },
      schema: {
        operationId: 'cancelInvitation',
        tags,
        summary: 'Cancel a pending or expired invitation: its link stops working',
        params: IdParam,
        response: { 200: Ok, 404: ErrorBody },
      },
    },
    async (request) =>
      service.cancelInvitation(ctx, actorOf(request), {
        customerAccess: customerAccessOf(request),
        id: request.params.id,
      }),
  );

  api.post(
    '/invitations/:id/resend',
    {
      config: { access: ofInvitation('viewTeam') },
      schema: {
        operationId: 'resendInvitation',
        tags,
        summary: 'Send a pending or expired invitation again: a new link (the old one stops working), 7 more days',
        params: IdParam,
        response: { 200: Invitation, 404: ErrorBody },
      },
    },
    async (request) =>
      service.resendInvitation(ctx, actorOf(request), {
        customerAccess: customerAccessOf(request),
        id: request.params.id,
      }),
  );
}
