import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROVIDER_SUBSCRIPTION_STATUSES } from '../../../common/billing';
import { PAYMENT_STATUSES, type PaymentStatus } from '../../../common/domain';
import { integrationActor } from '../../actor';
import type { AppContext } from '../../context';
import { entriesOf, selfServiceCustomer, subscriptionOf } from '../../test/billing';
import { createTestApp, type TestApp } from '../../test/harness';
import * as repo from './repo';
import { mayMove, PAYMENT_TRANSITIONS, statusFromProvider, type StatusOrNone } from './status';
import { applyStatus } from './sync';

/** The payment statuses' state machine (docs/billing.md): its table, walked move by move. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const stripe = integrationActor('stripe');

describe('the table of moves', () => {
  it('has a row for every status and for no subscription, and names only statuses, never staying put', () => {
    expect(Object.keys(PAYMENT_TRANSITIONS).sort()).toEqual(['none', ...PAYMENT_STATUSES].sort());
    for (const [from, targets] of Object.entries(PAYMENT_TRANSITIONS)) {
      expect(targets.length, from).toBeGreaterThan(0);
      expect(new Set(targets).size, from).toBe(targets.length);
      for (const to of targets) {
        expect(PAYMENT_STATUSES, `${from} -> ${to}`).toContain(to);
        expect(to, from).not.toBe(from);
      }
    }
  });

  it('reaches every status from a customer without a subscription', () => {
    const seen = new Set<StatusOrNone>(['none']);
    const queue: StatusOrNone[] = ['none'];
    while (queue.length) {
      for (const to of PAYMENT_TRANSITIONS[queue.shift()!]) {
        if (seen.has(to)) continue;
        seen.add(to);
        queue.push(to);
      }
    }
    expect([...seen].sort()).toEqual(['none', ...PAYMENT_STATUSES].sort());
  });

  it('keeps a paying customer from going back to a checkout, and an ended one from grace', () => {
    expect(mayMove('paid', 'initiated')).toBe(false);
    expect(mayMove('paid', 'trial')).toBe(false);
    expect(mayMove('paid', 'pastDue')).toBe(false);
    expect(mayMove('canceled', 'grace')).toBe(false);
    expect(mayMove('unpaid', 'grace')).toBe(false);
    expect(mayMove(null, 'grace')).toBe(false);
    expect(mayMove('paid', 'grace')).toBe(true);
    expect(mayMove('grace', 'pastDue')).toBe(true);
    expect(mayMove(null, 'initiated')).toBe(true);
  });
});

describe('every move of the table, made on a stored subscription', () => {
  it('is made when the table allows it (audited) and refused and logged otherwise (nothing changes)', async () => {
    const warnings: { data: Record<string, unknown>; message: string }[] = [];
    const log = {
      ...t.app.ctx.log,
      info: () => {},
      warn: (data: Record<string, unknown>, message: string) => warnings.push({ data, message }),
    } as unknown as AppContext['log'];
    const ctx: AppContext = { ...t.app.ctx, log };
    const { db } = ctx;
    const customer = await selfServiceCustomer(db, { status: 'trial' });
    let moves = 0;
    let refusals = 0;
    for (const from of PAYMENT_STATUSES) {
      for (const to of PAYMENT_STATUSES.filter((status) => status !== from)) {
        await repo.updateSubscription(db, customer.id, { status: from, graceUntil: null, suspendedAt: null });
        const audited = (await entriesOf(db, customer.id, 'updatePaymentStatus')).length;
        warnings.length = 0;
        const result = await db.transaction().execute(async (trx) => {
          const row = (await repo.findSubscription(trx, customer.id, { lock: true }))!;
          return applyStatus(ctx, trx, stripe, row, to, { now: new Date() });
        });
        const after = await subscriptionOf(db, customer.id);
        const entries = await entriesOf(db, customer.id, 'updatePaymentStatus');
        const label = `${from} -> ${to}`;
        if (PAYMENT_TRANSITIONS[from].includes(to)) {
          moves++;
          expect(result, label).toBe(to);
          expect(after.status, label).toBe(to);
          expect(entries, label).toHaveLength(audited + 1);
          expect(JSON.parse(entries.at(-1)!.data), label).toMatchObject({ from, to });
          expect(entries.at(-1), label).toMatchObject({ actorKind: 'integration', actorName: 'stripe' });
          expect(warnings, label).toEqual([]);
        } else {
          refusals++;
          expect(result, label).toBe(from);
          expect(after.status, label).toBe(from);
          expect(entries, label).toHaveLength(audited);
          expect(warnings, label).toEqual([
            {
              data: expect.objectContaining({ customerId: customer.id, from, to }),
              message: 'payment status transition refused',
            },
          ]);
        }
      }
    }
    const allowed = PAYMENT_STATUSES.reduce((n, from) => n + PAYMENT_TRANSITIONS[from].length, 0);
    expect(moves).toBe(allowed);
    expect(moves + refusals).toBe(PAYMENT_STATUSES.length * (PAYMENT_STATUSES.length - 1));
  });
});

describe("the provider's statuses (docs/billing.md)", () => {
  const now = new Date('2030-06-15T12:00:00Z');
  const running = { status: 'paid' as PaymentStatus, graceUntil: null };
  const map = (
    status: (typeof PROVIDER_SUBSCRIPTION_STATUSES)[number],
    current: { status: PaymentStatus | null; graceUntil: string | null } = running,
    cancelAtPeriodEnd = false,
  ) => statusFromProvider({ status, cancelAtPeriodEnd }, current, now);

  it('maps each of them', () => {
    expect(map('trialing')).toBe('trial');
    expect(map('active')).toBe('paid');
    expect(map('incomplete', { status: 'initiated', graceUntil: null })).toBe('processing');
    expect(map('incomplete_expired', { status: 'processing', graceUntil: null })).toBe('initiated');
    expect(map('past_due')).toBe('grace');
    expect(map('unpaid')).toBe('unpaid');
    expect(map('paused')).toBe('unpaid');
    expect(map('canceled')).toBe('canceled');
  });

  it('says toBeCanceled for a subscription that ends at the end of its period', () => {
    expect(map('active', running, true)).toBe('toBeCanceled');
    expect(map('trialing', running, true)).toBe('toBeCanceled');
    expect(map('canceled', running, true)).toBe('canceled');
  });

  it('starts grace only while the service runs, and ends it once its date has passed', () => {
    for (const status of ['trial', 'paid', 'toBeCanceled'] as const) {
      expect(map('past_due', { status, graceUntil: null }), status).toBe('grace');
    }
    expect(map('past_due', { status: 'grace', graceUntil: '2030-06-20T00:00:00Z' })).toBe('grace');
    expect(map('past_due', { status: 'grace', graceUntil: '2030-06-10T00:00:00Z' })).toBe('pastDue');
    expect(map('past_due', { status: 'pastDue', graceUntil: null })).toBe('pastDue');
    expect(map('past_due', { status: 'unpaid', graceUntil: null })).toBe('pastDue');
  });

  it("keeps a portal trial while a first payment is being confirmed or was never made, and the portal's status without a subscription", () => {
    expect(map('incomplete', { status: 'trial', graceUntil: null })).toBe('trial');
    expect(map('incomplete_expired', { status: 'trial', graceUntil: null })).toBe('trial');
    expect(statusFromProvider(null, { status: 'initiated', graceUntil: null }, now)).toBe('initiated');
    expect(statusFromProvider(null, { status: null, graceUntil: null }, now)).toBeNull();
  });
});
