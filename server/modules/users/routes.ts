import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IdParam } from '../../../common/api/common';
import { ErrorBody } from '../../../common/api/errors';
import { CreateUserBody, UpdateUserBody, User, UserList, UserListQuery } from '../../../common/api/users';
import { access } from '../../plugins/access';
import { actorOf } from '../../plugins/session';
import * as service from './service';

/** Staff accounts (spec section 7, "/users"): the Users page, admins only. */
export async function userRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const rule = { access: access.can('manageUsers') };
  const tags = ['users'];

  api.get(
    '/users',
    {
      config: rule,
      schema: {
        operationId: 'listUsers',
        tags,
        summary: 'Users, by id; the filter matches id, full name or e-mail (case-insensitive)',
        querystring: UserListQuery,
        response: { 200: UserList },
      },
    },
    async (request) => service.listUsers(ctx, actorOf(request), request.query),
  );

  api.post(
    '/users',
    {
      config: { ...rule, idempotent: true },
      schema: {
        operationId: 'createUser',
        tags,
        summary: 'Create a staff user; they receive a mail with a link to choose their password',
        body: CreateUserBody,
        response: { 201: User, 409: ErrorBody },
      },
    },
    async (request, reply) => reply.status(201).send(await service.createUser(ctx, actorOf(request), request.body)),
  );

  api.get(
    '/users/:id',
    {
      config: rule,
      schema: {
        operationId: 'getUser',
        tags,
        summary: 'One user',
        params: IdParam,
        response: { 200: User, 404: ErrorBody },
      },
    },
    async (request) => service.getUser(ctx, actorOf(request), request.params),
  );

  api.patch(
    '/users/:id',
    {
      config: rule,
      schema: {
        operationId: 'updateUser',
        tags,
        summary: 'Change e-mail, full name, status or language (not the type); disabling ends their sessions',
        params: IdParam,
        body: UpdateUserBody,
        response: { 200: User, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => service.updateUser(ctx, actorOf(request), { id: request.params.id, patch: request.body }),
  );
}
