import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfServiceCustomer, postEvent, stripeEvent } from '../../test/billing';
import { signedIn } from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';

/**
 * A portal that sells no self-service (docs/billing.md): SELF_SERVICE_SIGNUP off, and no payment
 * provider, as a production portal without Stripe keys starts. The sign-up's routes are not there
 * (404), its page says it is not offered, and the payment calls of a self-service customer an admin
 * made answer 409 payment_not_configured, which the customer's `can` says beforehand.
 */

const PUBLIC = '<!doctype html><html lang="en"><div id="root"><!-- sign-in pages --></div>';
const SIGN_UP_EN = '<!doctype html><html lang="en"><div id="root" data-prerendered><!-- the sign-up form --></div>';

let t: TestApp;
let on: TestApp;
let staticDir: string;

beforeAll(async () => {
  staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-no-self-service-'));
  fs.mkdirSync(path.join(staticDir, 'prerendered', 'en'), { recursive: true });
  fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><html lang="en"></html>');
  fs.writeFileSync(path.join(staticDir, 'public.html'), PUBLIC);
  fs.writeFileSync(path.join(staticDir, 'prerendered', 'en', 'sign-up.html'), SIGN_UP_EN);
  const env = { STATIC_DIR: staticDir };
  on = await createTestApp(env);
  t = await createTestApp(
    { ...env, SELF_SERVICE_SIGNUP: 'false' },
    { payments: { ...on.config.payments, stripe: null, available: false } },
  );
});
afterAll(async () => {
  await t?.close();
  await on?.close();
  fs.rmSync(staticDir, { recursive: true, force: true });
});

const signUp = {
  email: 'new.visitor@example.com',
  firstName: 'New',
  lastName: 'Visitor',
  companyName: 'Visiting Ltd',
  jobTitle: 'Engineer',
};

describe('SELF_SERVICE_SIGNUP off', () => {
  it('answers the sign-up routes 404, and says so in the public configuration', async () => {
    const calls = [
      { method: 'POST' as const, url: '/api/signup', payload: signUp },
      { method: 'GET' as const, url: '/api/signup/some-key-0123456789' },
      {
        method: 'POST' as const,
        url: '/api/signup/some-key-0123456789/confirm',
        payload: { firstName: 'New', lastName: 'Visitor', password: 'x', confirmPassword: 'x' },
      },
    ];
    for (const call of calls) {
      const response = await request(t.app, null, call);
      expect(response.statusCode, call.url).toBe(404);
      expect(response.json().error.code, call.url).toBe('not_found');
    }
    expect((await request(t.app, null, { url: '/api/config' })).json().selfServiceSignup).toBe(false);
    // on, the same calls reach the sign-up (a refused body, not a missing route)
    expect((await request(on.app, null, { url: '/api/config' })).json().selfServiceSignup).toBe(true);
    expect((await request(on.app, null, { method: 'POST', url: '/api/signup', payload: {} })).statusCode).toBe(400);
  });

  it('answers the sign-up page 404 with the light page, not its pre-rendered form', async () => {
    const off = await t.app.inject({ url: '/en/sign-up', headers: { 'accept-encoding': 'identity' } });
    expect(off.statusCode).toBe(404);
    expect(off.body).toContain('<!-- sign-in pages -->');
    expect(off.body).not.toContain('the sign-up form');
    const offered = await on.app.inject({ url: '/en/sign-up', headers: { 'accept-encoding': 'identity' } });
    expect(offered.statusCode).toBe(200);
    expect(offered.body).toContain('the sign-up form');
  });
});

describe('no payment provider', () => {
  it('refuses every payment call 409 payment_not_configured, and offers no payment in can', async () => {
    const customer = await selfServiceCustomer(t.app.ctx.db, { status: 'trial' });
    const owner = await signedIn(t.app, 'client', { id: customer.id, role: 'businessOwner' });
    const answer = (await request(t.app, owner.cookie, { url: `/api/customers/${customer.id}` })).json();
    expect(answer.can).toMatchObject({ viewSubscription: true, pay: false });
    for (const url of [
      '/api/signup/payment',
      '/api/stripe/billing-portal-session',
      '/api/stripe/update-payment-method-session',
    ]) {
      const response = await request(t.app, owner.cookie, {
        method: 'POST',
        url,
        payload: { customerId: customer.id },
      });
      expect(response.statusCode, url).toBe(409);
      expect(response.json().error.code, url).toBe('payment_not_configured');
    }
    // no checkout was ever opened here: a session id names none (the access rule's 404)
    const verify = await request(t.app, owner.cookie, { url: '/api/stripe/verify-session/cs_test_123' });
    expect(verify.statusCode).toBe(404);
    const event = await postEvent(t.app, stripeEvent('invoice.paid', { customer: 'cus_x' }), 'whsec_anything');
    expect(event.statusCode).toBe(409);
    expect(event.json().error.code).toBe('payment_not_configured');
    const subscription = await request(t.app, owner.cookie, { url: `/api/customers/${customer.id}/subscription` });
    expect(subscription.json()).toMatchObject({ status: 'trial', manageable: false });

    // where payments are set up, the same project manager may pay
    const elsewhere = await selfServiceCustomer(on.app.ctx.db, { status: 'trial' });
    const payer = await signedIn(on.app, 'client', { id: elsewhere.id, role: 'businessOwner' });
    expect((await request(on.app, payer.cookie, { url: `/api/customers/${elsewhere.id}` })).json().can.pay).toBe(true);
  });
});
