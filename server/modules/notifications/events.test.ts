import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../../common/licence-status';
import type { AppContext } from '../../context';
import { MAIL_DELIVERY_JOB } from '../../mail';
import { createCustomer, createProduct, createUser, login } from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';
import { makeJobsDue } from '../../test/jobs';
import { bystanders, centreOf, expectNotificationMail, expectToldNothing, mailsTo, member } from '../../test/notified';
import { SmtpPeer } from '../../test/smtp-peer';
import { nextIp, solvedCaptcha } from '../auth/test-helpers';

/**
 * The events of docs/notifications.md end to end: the change through the API, the fan-out job, the
 * mail as the real SMTP peer receives it (language, links, List-Unsubscribe), the entry in the
 * recipient's notification centre, and nothing for whoever unticked the flag, was disabled or is only
 * invited. A licence's end has its file (events-expiry.test.ts), what people do another
 * (events-activity.test.ts).
 */
let t: TestApp;
let ctx: AppContext;
let peer: SmtpPeer;
let admin: string;
beforeAll(async () => {
  peer = new SmtpPeer();
  t = await createTestApp({ SMTP_URL: await peer.listen() });
  ctx = t.app.ctx;
  const staff = await createUser(ctx.db, { type: 'admin' });
  admin = await login(t.app, staff.email);
});
afterAll(async () => {
  await t?.close();
  await peer?.close();
});
afterEach(() => {
  peer.refusing = false;
  peer.refusingAddresses.clear();
  peer.received = [];
});

/** Runs the queued work: the fan-out, then the mails it queued. */
const settle = async () => {
  await ctx.jobs.drain();
};

describe('notifyNewProductLicense', () => {
  it('tells the members who asked, in their language, with the links, and not those who unticked it', async () => {
    const product = await createProduct(ctx.db, { name: 'Graph Engine' });
    const customer = await createCustomer(ctx.db, { name: 'Acme Graphs' });
    const french = await member(t.app, customer.id, 'technicalContact', { locale: 'fr' });
    const executive = await member(t.app, customer.id, 'accountExecutive');
    const quiet = await bystanders(t.app, customer.id, 'notifyNewProductLicense', 'businessOwner');

    const today = new Date().toISOString().slice(0, 10);
    const created = await request(t.app, admin, {
      method: 'POST',
      url: `/api/customers/${customer.id}/licenses`,
      payload: { productKey: product.key, startDate: today, endDate: addDays(today, 365), data: {} },
    });
    expect(created.statusCode).toBe(201);
    // told only once the change committed, by the fan-out job
    expect(peer.received).toHaveLength(0);
    await settle();

    const path = `/accounts/${customer.id}`;
    const [mail] = await mailsTo(peer, french.email);
    // French typography: a no-break space before the colon
    expectNotificationMail(mail, {
      locale: 'fr',
      subject: 'Nouvelle licence pour Acme Graphs\u00A0: Graph Engine',
      path,
    });
    expect(mail.text).toContain('Acme Graphs dispose d’une nouvelle licence\u00A0: Graph Engine.');
    const [mailEn] = await mailsTo(peer, executive.email);
    expectNotificationMail(mailEn, { locale: 'en', subject: 'New licence for Acme Graphs: Graph Engine', path });

    for (const person of [french, executive]) {
      const centre = await centreOf(t.app, person.cookie);
      expect(centre.data).toMatchObject([
        {
          messageKey: 'notification.newProductLicense',
          params: { customerId: customer.id, customerName: 'Acme Graphs', productName: 'Graph Engine' },
          link: path,
        },
      ]);
      expect(centre.unread).toBe(1);
    }
    await expectToldNothing(t.app, quiet);
  });
});

describe('notifyEmailError', () => {
  /** A password reset asked through the API for `email` (its mail is what bounces). */
  async function resetFor(email: string) {
    const response = await request(t.app, null, {
      method: 'POST',
      url: '/api/auth/request-password-reset',
      remoteAddress: nextIp(),
      payload: { email, recaptchaResponse: await solvedCaptcha(t.app) },
    });
    expect(response.statusCode).toBe(200);
  }

  it('tells the business owners and account executive, in their language, of a mail to a member that bounced or never went', async () => {
    const customer = await createCustomer(ctx.db, { name: 'Bounce Ltd' });
    const owner = await member(t.app, customer.id, 'businessOwner', { locale: 'fr' });
    const executive = await member(t.app, customer.id, 'accountExecutive');
    const bouncing = await member(t.app, customer.id, 'technicalContact');
    const colleague = await member(t.app, customer.id, 'technicalContact');
    const quiet = await bystanders(t.app, customer.id, 'notifyEmailError', 'businessOwner');
    const path = `/accounts/${customer.id}`;

    // refused for good (550): told at once
    peer.refusingAddresses.set(bouncing.email.toLowerCase(), 550);
    await resetFor(bouncing.email);
    await settle();
    const [toOwner] = await mailsTo(peer, owner.email);
    expectNotificationMail(toOwner, {
      locale: 'fr',
      subject: `Un e-mail à ${bouncing.email} n’a pas pu être remis`,
      path,
    });
    expect(toOwner.text).toContain(
      `Un e-mail du portail client à ${bouncing.email}, membre de Bounce Ltd, n’a pas pu être remis`,
    );
    expect(toOwner.text).toContain('No such user here');
    const [toExecutive] = await mailsTo(peer, executive.email);
    expectNotificationMail(toExecutive, {
      locale: 'en',
      subject: `An e-mail to ${bouncing.email} could not be delivered`,
      path,
    });

    // refused for a while (450) until its last attempt: told then, not before
    const later = await member(t.app, customer.id, 'technicalContact');
    peer.refusingAddresses.set(later.email.toLowerCase(), 450);
    await resetFor(later.email);
    await settle();
    expect(await mailsTo(peer, owner.email)).toHaveLength(1);
    for (let attempt = 0; attempt < 12; attempt++) {
      await makeJobsDue(ctx.db, MAIL_DELIVERY_JOB);
      await settle();
    }
    expect((await mailsTo(peer, owner.email)).map((mail) => mail.subject)).toEqual([
      `Un e-mail à ${bouncing.email} n’a pas pu être remis`,
      `Un e-mail à ${later.email} n’a pas pu être remis`,
    ]);

    for (const person of [owner, executive]) {
      const centre = await centreOf(t.app, person.cookie);
      expect(centre.data.map(({ messageKey, params, link }) => ({ messageKey, params, link }))).toEqual(
        [later, bouncing].map((bounced) => ({
          messageKey: 'notification.emailError',
          params: { customerId: customer.id, customerName: 'Bounce Ltd', email: bounced.email },
          link: path,
        })),
      );
    }
    // the members whose mail bounced, and a technical contact, are not told
    await expectToldNothing(
      t.app,
      { ...quiet, colleague },
      { template: 'emailError', messageKey: 'notification.emailError' },
    );
    await expectToldNothing(
      t.app,
      { bouncing, later },
      { template: 'emailError', messageKey: 'notification.emailError' },
    );
  });

  it('never tells of its own bounce', async () => {
    const customer = await createCustomer(ctx.db, { name: 'Bounce Loop Ltd' });
    const owner = await member(t.app, customer.id, 'businessOwner');
    const tech = await member(t.app, customer.id, 'technicalContact');
    await ctx.mail.send({
      to: tech.email,
      template: 'passwordReset',
      locale: 'en',
      data: { fullName: 'T', link: 'http://portal.test/en/reset-password/x', validityHours: 1 },
    });
    peer.refusing = 550;
    await settle();
    const outbox = await ctx.db
      .selectFrom('mailOutbox')
      .select(['toAddress', 'template', 'status'])
      .where('toAddress', 'in', [owner.email, tech.email])
      .orderBy('id')
      .execute();
    // the reset mail failed for good; the telling of it to the owner was refused too (the peer refuses
    // everything), and that refusal told nobody
    expect(outbox).toEqual([
      { toAddress: tech.email, template: 'passwordReset', status: 'failed' },
      { toAddress: owner.email, template: 'emailError', status: 'failed' },
    ]);
    const centre = await centreOf(t.app, owner.cookie);
    expect(centre.data.map((n) => [n.messageKey, n.params.email])).toEqual([['notification.emailError', tech.email]]);
    expect((await centreOf(t.app, tech.cookie)).data).toEqual([]);
  });
});
