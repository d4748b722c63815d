import type {
  PaymentMethodUpdateSession,
  RedirectUrl,
  Subscription,
  VerifiedSession,
} from '../../../common/api/billing';
import { ERROR_CODES } from '../../../common/api/errors';
import type { CheckoutStatus } from '../../../common/domain';
import type { Locale } from '../../../common/roles';
import { type Actor, signedInUser } from '../../actor';
import type { AppContext } from '../../context';
import { isUniqueViolation } from '../../db';
import { HttpError, notConfigured, notFound } from '../../http-error';
import { PaymentProviderError } from '../../integrations/payments';
import type { CustomerAccess } from '../../policy';
import { auditActorOf, insertAuditEntry } from '../audit/repo';
import { checkoutRefusal } from './policy';
import * as repo from './repo';
import { applyStatus, daysUntil, syncSubscription } from './sync';

/**
 * Paying and managing a self-service subscription (spec sections 4 and 7, docs/billing.md): the
 * checkout, the return from it, the provider's pages to give a new card or manage the subscription,
 * and what the customer page shows of it.
 */

/** A failure of the payment provider is the provider's, told as such (502), never a 500. */
export async function viaProvider<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof PaymentProviderError) {
      throw new HttpError(502, ERROR_CODES.paymentProvider, 'The payment provider could not be reached');
    }
    throw error;
  }
}

/**
 * Card payments are set up on this portal (Stripe, or the test checkout where allowed): otherwise
 * every payment call is refused with 409 payment_not_configured, and no customer is offered to pay
 * (docs/billing.md: a production portal that sells no self-service needs no payment setting).
 */
export function requirePayments(ctx: AppContext): void {
  if (!ctx.config.payments.available) {
    throw notConfigured(ERROR_CODES.paymentNotConfigured, 'Card payments are not set up on this portal');
  }
}

const refusals = {
  notSelfService: () =>
    new HttpError(409, ERROR_CODES.notSelfService, 'Only a self-service customer pays by card in the portal'),
  subscriptionRunning: () =>
    new HttpError(
      409,
      ERROR_CODES.subscriptionRunning,
      'The subscription is running or has a payment to settle: manage it instead',
    ),
  noSubscription: () => new HttpError(409, ERROR_CODES.noSubscription, 'There is no subscription to manage yet'),
};

/** The customer page, in the caller's language: where the provider's pages lead back to. */
function accountPage(ctx: AppContext, locale: Locale, customerId: number, query = ''): string {
  return `${ctx.config.baseUrl}/${locale}/accounts/${customerId}${query}`;
}

const localeOf = (actor: Actor): Locale => signedInUser(actor).user.preferredLocale;

/**
 * The customer's provider customer, created at the first checkout. Recorded before the checkout opens,
 * so that every event of what the customer pays names a customer the portal knows; two checkouts
 * started at once keep the first one recorded. A customer without a subscription yet gets one,
 * `initiated`.
 */
async function providerCustomerOf(ctx: AppContext, actor: Actor, access: CustomerAccess): Promise<string> {
  const { customer, role } = access;
  const row = await repo.findSubscription(ctx.db, customer.id);
  if (row?.provider === ctx.payments.name && row.providerCustomerId) return row.providerCustomerId;
  const { user } = signedInUser(actor);
  const created = await viaProvider(() =>
    ctx.payments.createCustomer({
      customerId: customer.id,
      name: customer.name,
      // the customer's own contact gets the provider's receipts; staff paying for it do not
      email: role === 'businessOwner' ? user.email : null,
    }),
  );
  if (!row) {
    try {
      await ctx.db.transaction().execute(async (trx) => {
        await repo.insertSubscription(trx, {
          customerId: customer.id,
          provider: ctx.payments.name,
          providerCustomerId: created.id,
          providerSubscriptionId: null,
          status: 'initiated',
          currentPeriodEnd: null,
          graceUntil: null,
        });
        await insertAuditEntry(trx, {
          customerId: customer.id,
          by: auditActorOf(actor),
          action: 'updatePaymentStatus',
          data: { from: null, to: 'initiated', providerStatus: null },
        });
      });
      return created.id;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  return (await repo.setProviderCustomer(ctx.db, customer.id, ctx.payments.name, created.id)) ?? created.id;
}

/**
 * `POST /api/signup/payment`: opens the provider's checkout for a self-service customer without a
 * running subscription, and answers its URL. The checkout is recorded (a `payments` row, open) and
 * audited; a customer whose subscription had ended is `initiated` again.
 */
export async function startCheckout(
  ctx: AppContext,
  actor: Actor,
  input: { customerAccess: CustomerAccess },
): Promise<RedirectUrl> {
  requirePayments(ctx);
  const { customer } = input.customerAccess;
  const before = await repo.findSubscription(ctx.db, customer.id);
  const refusal = checkoutRefusal(customer, before?.status ?? null);
  if (refusal) throw refusals[refusal]();
  const providerCustomerId = await providerCustomerOf(ctx, actor, input.customerAccess);
  const locale = localeOf(actor);
  const session = await viaProvider(() =>
    ctx.payments.createCheckoutSession({
      providerCustomerId,
      customerId: customer.id,
      locale,
      successUrl: accountPage(ctx, locale, customer.id, '?payment=success&session_id={CHECKOUT_SESSION_ID}'),
      cancelUrl: accountPage(ctx, locale, customer.id),
    }),
  );
  if (!session.url) {
    ctx.log.warn(
      { customerId: customer.id, sessionId: session.id },
      'the payment provider gave a checkout without a URL',
    );
    throw new HttpError(502, ERROR_CODES.paymentProvider, 'The payment provider gave no checkout page');
  }
  await ctx.db.transaction().execute(async (trx) => {
    await repo.insertPayment(trx, {
      customerId: customer.id,
      providerSessionId: session.id,
      amountCents: session.amountTotal ?? 0,
      currency: session.currency ?? '',
      status: 'open',
    });
    const row = await repo.findSubscription(trx, customer.id, { lock: true });
    if (row?.status === 'canceled') await applyStatus(ctx, trx, actor, row, 'initiated', { now: new Date() });
    await insertAuditEntry(trx, {
      customerId: customer.id,
      by: auditActorOf(actor),
      action: 'startCheckout',
      data: { sessionId: session.id, provider: ctx.payments.name },
    });
  });
  return { url: session.url };
}

/**
 * `GET /api/stripe/verify-session/{sessionId}`: the customer is back from the checkout. The session is
 * read from the provider (never taken from the address), its outcome recorded, and once it is complete
 * the subscription is read and written as an event would have it (spec 4: the page then reloads the
 * customer). The access rule found the session's customer; the provider's session must be for it.
 */
export async function verifySession(
  ctx: AppContext,
  actor: Actor,
  input: { customerAccess: CustomerAccess; sessionId: string },
): Promise<VerifiedSession> {
  requirePayments(ctx);
  const customerId = input.customerAccess.customer.id;
  const session = await viaProvider(() => ctx.payments.retrieveCheckoutSession(input.sessionId));
  if (!session || (session.customerId !== null && session.customerId !== customerId)) {
    throw notFound('Checkout session not found');
  }
  const checkoutStatus: CheckoutStatus = session.status;
  await repo.setPaymentStatus(ctx.db, session.id, checkoutStatus);
  const paymentStatus =
    checkoutStatus === 'complete'
      ? await viaProvider(() => syncSubscription(ctx, actor, { customerId }))
      : ((await repo.findSubscription(ctx.db, customerId))?.status ?? null);
  return { sessionId: session.id, checkoutStatus, paymentStatus };
}

/** The customer's provider customer, for its pages; 409 before the first checkout. */
async function managedCustomer(ctx: AppContext, customerId: number): Promise<string> {
  const row = await repo.findSubscription(ctx.db, customerId);
  if (row?.provider !== ctx.payments.name || !row.providerCustomerId) throw refusals.noSubscription();
  return row.providerCustomerId;
}

/** `POST /api/stripe/update-payment-method-session`: the provider's page to give a new card. */
export async function paymentMethodUpdateSession(
  ctx: AppContext,
  actor: Actor,
  input: { customerAccess: CustomerAccess },
): Promise<PaymentMethodUpdateSession> {
  requirePayments(ctx);
  const { customer } = input.customerAccess;
  if (!customer.selfService) throw refusals.notSelfService();
  const providerCustomerId = await managedCustomer(ctx, customer.id);
  const locale = localeOf(actor);
  const session = await viaProvider(() =>
    ctx.payments.createPaymentMethodUpdateSession({
      providerCustomerId,
      customerId: customer.id,
      locale,
      returnUrl: accountPage(ctx, locale, customer.id),
    }),
  );
  return { stripe: { url: session.url } };
}

/** `POST /api/stripe/billing-portal-session`: the provider's page to manage the subscription (a new tab). */
export async function billingPortalSession(
  ctx: AppContext,
  actor: Actor,
  input: { customerAccess: CustomerAccess },
): Promise<RedirectUrl> {
  requirePayments(ctx);
  const { customer } = input.customerAccess;
  if (!customer.selfService) throw refusals.notSelfService();
  const providerCustomerId = await managedCustomer(ctx, customer.id);
  const locale = localeOf(actor);
  return viaProvider(() =>
    ctx.payments.createPortalSession({
      providerCustomerId,
      customerId: customer.id,
      locale,
      returnUrl: accountPage(ctx, locale, customer.id),
    }),
  );
}

/** `GET /api/customers/{id}/subscription`: what the subscription block and the payment screens show. */
export async function getSubscription(
  ctx: AppContext,
  _actor: Actor,
  input: { customerAccess: CustomerAccess },
): Promise<Subscription> {
  const { customer } = input.customerAccess;
  const row = await repo.findSubscription(ctx.db, customer.id);
  const inGrace = row?.status === 'grace' && row.graceUntil !== null;
  return {
    customerId: customer.id,
    selfService: customer.selfService,
    status: row?.status ?? null,
    provider: row?.provider ?? null,
    currentPeriodEnd: row?.currentPeriodEnd ?? null,
    graceUntil: inGrace ? row.graceUntil : null,
    graceDaysLeft: inGrace && row.graceUntil ? daysUntil(row.graceUntil, new Date()) : null,
    manageable: Boolean(
      ctx.config.payments.available &&
      customer.selfService &&
      row?.provider === ctx.payments.name &&
      row.providerCustomerId,
    ),
    suspended: Boolean(row?.suspendedAt),
  };
}
