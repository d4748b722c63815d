import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addDays, addMonths } from '../../../common/licence-status';
import { jobActor } from '../../actor';
import type { AppContext } from '../../context';
import { addMembership, createCustomer, createLicence, createProduct, createUser, login } from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';
import { decodeQuotedPrintable, SmtpPeer } from '../../test/smtp-peer';
import { updateFlags } from '../notification-settings/repo';
import { queueExpiryNotices } from './expiry';

/**
 * The events of docs/notifications.md end to end: the change through the API (or the daily run), the
 * fan-out job, the mail as the real SMTP peer receives it (language, link, List-Unsubscribe), the entry
 * in the recipient's notification centre, and nothing for whoever unticked the flag.
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
  peer.received = [];
});

/** Runs the queued work: the fan-out, then the mails it queued. */
const settle = async () => {
  while ((await ctx.jobs.drain()) > 0);
};
const mailsTo = (email: string) => peer.received.filter((m) => new RegExp(`^To: ${email}\\r?$`, 'm').test(m));
// headers unfolded (a long subject goes on over several lines)
const subjectOf = (message: string) => /^Subject: (.*?)\r?$/m.exec(message.replace(/\r?\n[ \t]+/g, ' '))?.[1];

async function member(customerId: number, role: 'businessOwner' | 'technicalContact', locale: 'en' | 'fr' = 'en') {
  const user = await createUser(ctx.db, { type: 'client', preferredLocale: locale, fullName: `${role} ${locale}` });
  const membership = await addMembership(ctx.db, user.id, customerId, role);
  return { ...user, membershipId: membership.id, cookie: await login(t.app, user.email) };
}

const centreOf = async (cookie: string) =>
  (await request(t.app, cookie, { method: 'GET', url: '/api/notifications?pageOffset=0&pageLength=20' })).json() as {
    data: { messageKey: string; params: Record<string, unknown> }[];
    unread: number;
  };

describe('notifyNewProductLicense', () => {
  it('tells the members who asked, in their language, with the links, and not those who unticked it', async () => {
    const product = await createProduct(ctx.db, { name: 'Graph Engine' });
    const customer = await createCustomer(ctx.db, { name: 'Acme Graphs' });
    const french = await member(customer.id, 'technicalContact', 'fr');
    const quiet = await member(customer.id, 'businessOwner');
    await updateFlags(ctx.db, quiet.membershipId, { notifyNewProductLicense: false });

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

    const [mail] = mailsTo(french.email);
    expect(mail).toBeDefined();
    const text = decodeQuotedPrintable(mail);
    // French typography: a no-break space before the colon
    expect(text).toContain('Acme Graphs dispose d’une nouvelle licence\u00A0: Graph Engine.');
    expect(text).toContain(`http://portal.test/fr/accounts/${customer.id}`);
    expect(mail).toMatch(/^List-Unsubscribe: <http:\/\/portal\.test\/fr\/settings>\r?$/m);
    expect(mailsTo(quiet.email)).toEqual([]);

    const centre = await centreOf(french.cookie);
    expect(centre.data[0]).toMatchObject({
      messageKey: 'notification.newProductLicense',
      params: { customerId: customer.id, customerName: 'Acme Graphs', productName: 'Graph Engine' },
    });
    expect(centre.unread).toBe(1);
    expect((await centreOf(quiet.cookie)).data).toEqual([]);
  });
});

describe('notifyLicenseExpiresSoon and notifyLicenseExpired', () => {
  it('tells once per licence and end date, on the day it enters its last 3 months and the day after it ends', async () => {
    const product = await createProduct(ctx.db, { name: 'Expiring Product' });
    const customer = await createCustomer(ctx.db, { name: 'Ending Corp' });
    const endDate = '2031-06-30';
    const licence = await createLicence(ctx.db, customer.id, product.key, { startDate: '2030-01-01', endDate });
    const owner = await member(customer.id, 'businessOwner');
    const tech = await member(customer.id, 'technicalContact');
    await updateFlags(ctx.db, tech.membershipId, { notifyLicenseExpiresSoon: false });
    const run = async (today: string) => {
      const counts = await queueExpiryNotices(ctx, jobActor('test'), today);
      await settle();
      return counts;
    };
    const mine = (counts: { expiresSoon: number; expired: number }) => counts;

    // a day before its last 3 months: nothing
    expect(mine(await run(addDays(addMonths(endDate, -3), -1)))).toMatchObject({ expiresSoon: 0 });
    // the first day of its last 3 months, then again the same day and the next: once
    expect(mine(await run(addMonths(endDate, -3)))).toMatchObject({ expiresSoon: 1 });
    expect(mine(await run(addMonths(endDate, -3)))).toMatchObject({ expiresSoon: 0 });
    expect(mine(await run(addDays(addMonths(endDate, -3), 1)))).toMatchObject({ expiresSoon: 0 });
    expect(mailsTo(owner.email).map(subjectOf)).toEqual([
      'The licence of Expiring Product for Ending Corp expires on 30 Jun 2031',
    ]);
    expect(mailsTo(tech.email)).toEqual([]);

    // on its end date it is still valid; the day after, it expired: once
    expect(mine(await run(endDate))).toMatchObject({ expired: 0 });
    expect(mine(await run(addDays(endDate, 1)))).toMatchObject({ expired: 1 });
    expect(mine(await run(addDays(endDate, 2)))).toMatchObject({ expired: 0 });
    expect(mailsTo(tech.email).map(subjectOf)).toEqual(['The licence of Expiring Product for Ending Corp has expired']);

    // a renewal moves the end date: both notices are armed again for the new one
    const renewed = '2032-06-30';
    await ctx.db.updateTable('licences').set({ endDate: renewed }).where('id', '=', licence.id).execute();
    expect(mine(await run(addMonths(renewed, -2)))).toMatchObject({ expiresSoon: 1 });
    expect(mailsTo(owner.email)).toHaveLength(3);
    const centre = await centreOf(owner.cookie);
    expect(centre.data.map((n) => [n.messageKey, n.params.endDate])).toEqual([
      ['notification.licenseExpiresSoon', renewed],
      ['notification.licenseExpired', endDate],
      ['notification.licenseExpiresSoon', endDate],
    ]);
  });

  it('tells nothing of a notice whose licence was renewed before its fan-out ran', async () => {
    const product = await createProduct(ctx.db);
    const customer = await createCustomer(ctx.db);
    const licence = await createLicence(ctx.db, customer.id, product.key, { endDate: '2033-03-31' });
    const owner = await member(customer.id, 'businessOwner');
    await queueExpiryNotices(ctx, jobActor('test'), '2033-01-15');
    await ctx.db.updateTable('licences').set({ endDate: '2034-03-31' }).where('id', '=', licence.id).execute();
    await settle();
    expect(mailsTo(owner.email)).toEqual([]);
  });
});

describe('notifyEmailError', () => {
  it('tells the business owners that a mail to a member bounced, and never of its own bounce', async () => {
    const customer = await createCustomer(ctx.db, { name: 'Bounce Ltd' });
    const owner = await member(customer.id, 'businessOwner');
    const tech = await member(customer.id, 'technicalContact');
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
    const centre = await centreOf(owner.cookie);
    expect(centre.data.map((n) => [n.messageKey, n.params.email])).toEqual([['notification.emailError', tech.email]]);
    expect((await centreOf(tech.cookie)).data).toEqual([]);
  });
});
