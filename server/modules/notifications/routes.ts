import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  MarkNotificationsReadBody,
  NotificationList,
  NotificationQuery,
  UnreadCount,
} from '../../../common/api/notifications';
import { access } from '../../plugins/access';
import { actorOf } from '../../plugins/session';
import * as service from './service';

/** The notification centre (spec section 3, "Notification"): each signed-in user's own notifications. */
export async function notificationRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['notifications'];

  api.get(
    '/notifications',
    {
      config: { access: access.signedIn },
      schema: {
        operationId: 'listNotifications',
        tags,
        summary: "One page of the caller's notifications, newest first, with the number of unread ones",
        description:
          "Each is a message key and its parameters, rendered in the reader's language, and the portal path " +
          'it is about (`link`, without the locale) when its parameters name a customer, a licence, or a ' +
          'product whose page the caller may open.',
        querystring: NotificationQuery,
        response: { 200: NotificationList },
      },
    },
    async (request) => service.listNotifications(ctx, actorOf(request), request.query),
  );

  api.post(
    '/notifications/read',
    {
      config: { access: access.signedIn },
      schema: {
        operationId: 'markNotificationsRead',
        tags,
        summary: "Mark some of the caller's notifications read (`ids`, 1 to 100), or all of them (`all: true`)",
        description:
          "Ids of notifications that are not the caller's, or that do not exist, are ignored. Answers the " +
          'number of unread notifications left.',
        body: MarkNotificationsReadBody,
        response: { 200: UnreadCount },
      },
    },
    async (request) => service.markNotificationsRead(ctx, actorOf(request), request.body),
  );
}
