import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { PaymentMethodUpdateSession, RedirectUrl, Subscription, VerifiedSession } from '../../../common/api/billing';
import {
  CustomerIdBody,
  SessionParams,
  TestCheckoutActionBody,
  WebhookReceived,
} from '../../../common/api/billing-requests';
import { TestCheckoutOutcome, TestCheckoutSession } from '../../../common/api/test-checkout';
import { IdParam } from '../../../common/api/common';
import { ErrorBody } from '../../../common/api/errors';
import { integrationActor } from '../../actor';
import { errorResponses } from '../../http-error';
import { customerOfSession } from '../../integrations/payments/builtin-store';
import { access, customerAccessOf } from '../../plugins/access';
import { actorOf } from '../../plugins/session';
import { customerOfCheckout } from './repo';
import * as service from './service';
import { actOnTestCheckoutSession, getTestCheckoutSession } from './test-checkout';
import { receiveProviderEvent } from './webhooks';

/** A session id as the path gives it, before the schema runs; anything else names no session (404). */
const sessionIdOf = (request: FastifyRequest): string | null => {
  const value = (request.params as Record<string, unknown> | undefined)?.sessionId;
  return typeof value === 'string' && /^[A-Za-z0-9_-]{1,255}$/.test(value) ? value : null;
};

/**
 * Self-service payment (spec sections 4 and 7, docs/billing.md): the checkout and the return from it,
 * the provider's pages, the subscription as the customer page shows it, the provider's events, and
 * the pages of the built-in test checkout.
 */
export async function billingRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['billing'];

  api.post(
    '/signup/payment',
    {
      config: { access: access.customer('pay', { from: 'body.customerId' }) },
      schema: {
        operationId: 'startCheckout',
        tags,
        summary: "Open the payment provider's checkout for a self-service customer; answers its URL",
        description:
          'For a self-service customer with no subscription, one started and not paid, in trial, or whose subscription ended (409 otherwise). With Stripe keys the URL is Stripe Checkout’s; without, the built-in test checkout’s. A production portal with neither answers every payment call 409 payment_not_configured (the customer’s `can.pay` is then false). The checkout returns to the customer page with `payment=success&session_id=…`.',
        body: CustomerIdBody,
        response: { 200: RedirectUrl, ...errorResponses(400, 401, 403, 404, 409, 502) },
      },
    },
    async (request) => service.startCheckout(ctx, actorOf(request), { customerAccess: customerAccessOf(request) }),
  );

  api.get(
    '/stripe/verify-session/:sessionId',
    {
      config: {
        // a checkout session's id opens its page at the provider: kept out of the logs
        secretParams: ['sessionId'],
        access: access.customer('pay', {
          load: async ({ db }, request) => {
            const id = sessionIdOf(request);
            return id ? customerOfCheckout(db, id) : null;
          },
        }),
      },
      schema: {
        operationId: 'verifyCheckoutSession',
        tags,
        summary: 'After the checkout: read the session from the provider and bring the subscription up to date',
        description: "Only a checkout of one of the caller's customers is found (404 otherwise).",
        params: SessionParams,
        response: { 200: VerifiedSession, ...errorResponses(401, 403, 404, 409, 502) },
      },
    },
    async (request) =>
      service.verifySession(ctx, actorOf(request), {
        customerAccess: customerAccessOf(request),
        sessionId: request.params.sessionId,
      }),
  );

  api.post(
    '/stripe/update-payment-method-session',
    {
      config: { access: access.customer('pay', { from: 'body.customerId' }) },
      schema: {
        operationId: 'openPaymentMethodUpdate',
        tags,
        summary: "The provider's page where the customer gives a new card; answers `stripe.url`",
        description: 'For a customer that has paid through the provider at least once (409 otherwise).',
        body: CustomerIdBody,
        response: { 200: PaymentMethodUpdateSession, ...errorResponses(400, 401, 403, 404, 409, 502) },
      },
    },
    async (request) =>
      service.paymentMethodUpdateSession(ctx, actorOf(request), { customerAccess: customerAccessOf(request) }),
  );

  api.post(
    '/stripe/billing-portal-session',
    {
      config: { access: access.customer('viewSubscription', { from: 'body.customerId' }) },
      schema: {
        operationId: 'openBillingPortal',
        tags,
        summary: "The provider's billing portal, where the subscription is managed; answers its URL",
        description: 'For a customer that has paid through the provider at least once (409 otherwise).',
        body: CustomerIdBody,
        response: { 200: RedirectUrl, ...errorResponses(400, 401, 403, 404, 409, 502) },
      },
    },
    async (request) =>
      service.billingPortalSession(ctx, actorOf(request), { customerAccess: customerAccessOf(request) }),
  );

  api.get(
    '/customers/:id/subscription',
    {
      config: { access: access.customer('viewSubscription', { from: 'params.id' }) },
      schema: {
        operationId: 'getSubscription',
        tags,
        summary: "A customer's subscription: status, period, grace, whether the provider's pages can open",
        params: IdParam,
        response: { 200: Subscription, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => service.getSubscription(ctx, actorOf(request), { customerAccess: customerAccessOf(request) }),
  );

  api.post(
    '/stripe/webhooks',
    {
      // the signature is the access rule; the body stays the bytes that were signed
      config: {
        access: access.public,
        webhook: true,
        document: {
          requestBody: { description: 'A Stripe event, as Stripe signs it', mediaType: 'application/json' },
        },
      },
      schema: {
        operationId: 'receiveStripeEvent',
        tags,
        summary: "The payment provider's events, signed (`Stripe-Signature`)",
        description:
          'Verified with Stripe’s tolerance (5 minutes); each event id is handled once (a duplicate answers 200 and changes nothing); each event makes the portal read the subscription again. A bad signature answers 400; a failure to handle answers 5xx, which the provider retries.',
        response: { 200: WebhookReceived, 400: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => {
      const signature = request.headers['stripe-signature'];
      return receiveProviderEvent(ctx, integrationActor('stripe'), {
        payload: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
        signature: typeof signature === 'string' ? signature : undefined,
      });
    },
  );

  const testCheckoutAccess = access.customer('viewSubscription', {
    load: async ({ db }, request) => {
      const id = sessionIdOf(request);
      return id ? customerOfSession(db, id) : null;
    },
  });

  api.get(
    '/test-checkout/:sessionId',
    {
      config: { access: testCheckoutAccess, secretParams: ['sessionId'] },
      schema: {
        operationId: 'getTestCheckoutSession',
        tags,
        summary: 'A page of the built-in test checkout (only while no Stripe keys are set)',
        params: SessionParams,
        response: { 200: TestCheckoutSession, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) =>
      getTestCheckoutSession(ctx, actorOf(request), {
        customerAccess: customerAccessOf(request),
        sessionId: request.params.sessionId,
      }),
  );

  api.post(
    '/test-checkout/:sessionId',
    {
      config: { access: testCheckoutAccess, secretParams: ['sessionId'] },
      schema: {
        operationId: 'actOnTestCheckoutSession',
        tags,
        summary: 'What a tester does on a page of the built-in test checkout: pay, decline, abandon, renew…',
        description:
          "The outcome produces the events Stripe would send, delivered signed to the webhook code. Answers where the page goes next (null: it stays). graceOver ends the portal's grace now, as its end would (409 when the customer is not in grace).",
        params: SessionParams,
        body: TestCheckoutActionBody,
        response: { 200: TestCheckoutOutcome, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) =>
      actOnTestCheckoutSession(ctx, actorOf(request), {
        customerAccess: customerAccessOf(request),
        sessionId: request.params.sessionId,
        action: request.body.action,
      }),
  );
}
