import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IdParam } from '../../../common/api/common';
import { ErrorBody } from '../../../common/api/errors';
import {
  MembershipSettings,
  MyMemberships,
  MyMembershipsQuery,
  UpdateNotificationSettingsBody,
} from '../../../common/api/settings';
import { access, customerAccessOf, idFrom } from '../../plugins/access';
import { actorOf } from '../../plugins/session';
import { customerOfMembership } from '../members/repo';
import * as service from './service';

/** Notification flags per membership (spec section 3), changed from the settings page. */
export async function notificationSettingsRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['notification settings'];

  api.get(
    '/members/mine',
    {
      config: { access: access.signedIn },
      schema: {
        operationId: 'listMyMemberships',
        tags,
        summary: "The caller's enabled memberships with their notification flags, by customer name",
        querystring: MyMembershipsQuery,
        response: { 200: MyMemberships },
      },
    },
    async (request) => service.listMyMemberships(ctx, actorOf(request), request.query),
  );

  api.patch(
    '/members/:id/settings',
    {
      // Anyone with a role in the membership's customer passes here; the service lets through the
      // member themself and the roles that see the team (viewTeam), and refuses the others (403).
      config: {
        access: access.customer('viewCustomer', {
          load: ({ db }, request) => customerOfMembership(db, idFrom(request, 'params.id')),
        }),
      },
      schema: {
        operationId: 'updateNotificationSettings',
        tags,
        summary: "Change some or all of a membership's notification flags",
        description:
          "The member themself, or accountExecutive, admin, businessOwner, supportEngineer of the membership's " +
          "customer. An account executive's own change applies to all their customers.",
        params: IdParam,
        body: UpdateNotificationSettingsBody,
        response: { 200: MembershipSettings, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) =>
      service.updateNotificationSettings(ctx, actorOf(request), {
        membershipId: request.params.id,
        customerAccess: customerAccessOf(request),
        settings: request.body,
      }),
  );
}
