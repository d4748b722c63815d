import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IdParam } from '../../../common/api/common';
import { Customer } from '../../../common/api/customers';
import { ErrorBody } from '../../../common/api/errors';
import { access, customerAccessOf } from '../../plugins/access';
import { actorOf } from '../../plugins/session';
import * as service from './service';

/** Customers (spec section 7, "/customers"); who may see one is decided by the role held in it. */
export async function customerRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['customers'];

  api.get(
    '/customers/:id',
    {
      config: { access: access.customer('viewCustomer', { from: 'params.id' }) },
      schema: {
        tags,
        summary: 'One customer, with the role, membership and notification settings of the caller there',
        description: 'Anyone with a role in the customer; 404 for anyone else, whether or not it exists.',
        params: IdParam,
        response: { 200: Customer, 404: ErrorBody },
      },
    },
    async (request) => service.getCustomer(ctx, actorOf(request), { customerAccess: customerAccessOf(request) }),
  );
}
