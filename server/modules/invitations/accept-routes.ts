import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AcceptInvitationResult,
  AcceptNewInvitationBody,
  InvitationKeyParam,
  InvitationPreview,
} from '../../../common/api/invitation-acceptance';
import { errorResponses } from '../../http-error';
import { access } from '../../plugins/access';
import { perMinute } from '../../plugins/rate-limit';
import { actorOf, withSessionCookie } from '../../plugins/session';
import * as accept from './accept';

/**
 * Following an invitation link: what it offers, and joining (spec sections 2 and 7). The key is the
 * credential, so these routes are public (joining as the signed-in user needs that session), and
 * each is held to the per-IP limit of invitation acceptance.
 */
export async function invitationAcceptanceRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['invitations'];
  const rateLimit = perMinute(ctx.config.rateLimits.invitation);

  api.get(
    '/invitations/:key',
    {
      config: {
        access: access.public,
        rateLimit,
        secretParams: ['key'],
        // one template with DELETE /api/invitations/:id (by id, staff) in the OpenAPI document
        document: {
          renameParams: {
            key: { as: 'invitation', description: 'The invitation key, from the link mailed to the invitee' },
          },
        },
      },
      schema: {
        operationId: 'getInvitationByKey',
        tags,
        summary: 'What an invitation link offers: customer, role, inviter, and whether the address needs an account',
        description:
          'An expired invitation answers with status expired; an unknown key 404 (invitation_invalid), a cancelled or accepted one 410.',
        params: InvitationKeyParam,
        response: { 200: InvitationPreview, ...errorResponses(400, 404, 410, 429) },
      },
    },
    async (request) => accept.getInvitation(ctx, actorOf(request), request.params),
  );

  api.post(
    '/invitations/:key/new',
    {
      config: { access: access.public, rateLimit, secretParams: ['key'] },
      schema: {
        operationId: 'acceptInvitationAsNewUser',
        tags,
        summary: 'Join with a new account for the invited address; signs it in',
        description:
          '409 invitation_account_exists when the address has an account (join with /existing); 410 when expired, cancelled or accepted.',
        params: InvitationKeyParam,
        body: AcceptNewInvitationBody,
        response: { 200: AcceptInvitationResult, ...errorResponses(400, 404, 409, 410, 429) },
      },
    },
    async (request, reply) =>
      withSessionCookie(
        reply,
        ctx.config,
        await accept.acceptAsNewUser(ctx, actorOf(request), { ...request.params, ...request.body }),
      ),
  );

  api.post(
    '/invitations/:key/existing',
    {
      config: { access: access.signedIn, rateLimit, secretParams: ['key'] },
      schema: {
        operationId: 'acceptInvitationAsExistingUser',
        tags,
        summary: 'Join as the signed-in user, whose address must be the invited one',
        description:
          '403 invitation_other_email for another address; 409 invitation_already_member; 410 when expired, cancelled or accepted.',
        params: InvitationKeyParam,
        response: { 200: AcceptInvitationResult, ...errorResponses(401, 403, 404, 409, 410, 429) },
      },
    },
    async (request) => accept.acceptAsExistingUser(ctx, actorOf(request), request.params),
  );
}
