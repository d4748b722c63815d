import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { formatDayMonthYear } from '../../../common/format';
import { addDays, addMonths, utcToday } from '../../../common/licence-status';
import { jobActor } from '../../actor';
import type { AppContext } from '../../context';
import { nextSlot } from '../../jobs/runner';
import { SCHEDULED_JOBS } from '../../job-kinds';
import { createCustomer, createLicence, createProduct, signedIn } from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';
import {
  bystanders,
  centreOf,
  expectNotificationMail,
  expectToldNothing,
  mailsTo,
  member,
  silentOnes,
} from '../../test/notified';
import { SmtpPeer } from '../../test/smtp-peer';
import { LICENCE_EXPIRY_SCHEDULE, queueExpiryNotices } from './expiry';

/**
 * notifyLicenseExpiresSoon and notifyLicenseExpired (docs/notifications.md): from the daily schedule
 * to the mails and notification centres, and its boundaries on a controlled clock: the first day of
 * the last 3 months, the end date, a renewal through the API, a daylight-saving change.
 */
let t: TestApp;
let ctx: AppContext;
let peer: SmtpPeer;
let admin: string;
beforeAll(async () => {
  peer = new SmtpPeer();
  t = await createTestApp({ SMTP_URL: await peer.listen() });
  ctx = t.app.ctx;
  admin = (await signedIn(t.app, 'admin')).cookie;
});
afterAll(async () => {
  await t?.close();
  await peer?.close();
});
afterEach(() => {
  peer.received = [];
});

/** Runs the queued work: the fan-out, then the mails it queued. */
const settle = async () => {
  await ctx.jobs.drain();
};
/** The daily run on `today` (a controlled clock), and what it queued. */
const runOn = async (today: string) => {
  const counts = await queueExpiryNotices(ctx, jobActor('test'), today);
  await settle();
  return counts;
};
/** The daily schedule's job, as the runner queues it at its slot: it reads the clock itself. */
const runSchedule = async () => {
  await ctx.jobs.trigger(ctx.db, LICENCE_EXPIRY_SCHEDULE);
  await settle();
};
const subjects = async (email: string) => (await mailsTo(peer, email)).map((mail) => mail.subject);
const noticesOf = (licenceId: number) =>
  ctx.db
    .selectFrom('licenceExpiryNotices')
    .select(['kind', 'endDate'])
    .where('licenceId', '=', licenceId)
    .orderBy('createdAt')
    .orderBy('kind')
    .execute();

describe('the daily schedule', () => {
  it('tells the members who asked of a licence about to end and of one that ended, in their language', async () => {
    const product = await createProduct(ctx.db, { name: 'Ending Product' });
    const older = await createProduct(ctx.db, { name: 'Ended Product' });
    const customer = await createCustomer(ctx.db, { name: 'Ending Corp' });
    const today = utcToday();
    const soonEnd = addMonths(today, 1);
    const pastEnd = addDays(today, -1);
    const soon = await createLicence(ctx.db, customer.id, product.key, { endDate: soonEnd });
    const ended = await createLicence(ctx.db, customer.id, older.key, { startDate: '2024-01-01', endDate: pastEnd });
    const owner = await member(t.app, customer.id, 'businessOwner', { locale: 'fr' });
    const tech = await member(t.app, customer.id, 'technicalContact');
    const notSoon = await bystanders(t.app, customer.id, 'notifyLicenseExpiresSoon', 'technicalContact');
    const notEnded = await bystanders(t.app, customer.id, 'notifyLicenseExpired', 'technicalContact');

    await runSchedule();
    const path = `/accounts/${customer.id}`;
    // delivered at once, in any order
    const about = async (email: string, productName: string) =>
      (await mailsTo(peer, email)).find((mail) => mail.subject.includes(productName));
    const [soonFr, endedFr] = [await about(owner.email, 'Ending Product'), await about(owner.email, 'Ended Product')];
    const frDay = (day: string) => formatDayMonthYear(day, 'fr');
    expectNotificationMail(soonFr, {
      locale: 'fr',
      subject: `La licence Ending Product de Ending Corp expire le ${frDay(soonEnd)}`,
      path,
    });
    expectNotificationMail(endedFr, {
      locale: 'fr',
      subject: 'La licence Ended Product de Ending Corp a expiré',
      path,
    });
    expect(endedFr!.text).toContain(`a pris fin le ${frDay(pastEnd)}.`);
    const [soonEn, endedEn] = [await about(tech.email, 'Ending Product'), await about(tech.email, 'Ended Product')];
    expectNotificationMail(soonEn, {
      locale: 'en',
      subject: `The licence of Ending Product for Ending Corp expires on ${formatDayMonthYear(soonEnd, 'en')}`,
      path,
    });
    expect(await mailsTo(peer, tech.email)).toHaveLength(2);
    expectNotificationMail(endedEn, {
      locale: 'en',
      subject: 'The licence of Ended Product for Ending Corp has expired',
      path,
    });

    for (const person of [owner, tech]) {
      const centre = await centreOf(t.app, person.cookie);
      expect(centre.data.map(({ messageKey, params, link }) => ({ messageKey, params, link }))).toEqual(
        expect.arrayContaining([
          {
            messageKey: 'notification.licenseExpiresSoon',
            params: {
              customerId: customer.id,
              customerName: 'Ending Corp',
              licenceId: soon.id,
              productKey: product.key,
              productName: 'Ending Product',
              endDate: soonEnd,
            },
            link: path,
          },
          {
            messageKey: 'notification.licenseExpired',
            params: {
              customerId: customer.id,
              customerName: 'Ending Corp',
              licenceId: ended.id,
              productKey: older.key,
              productName: 'Ended Product',
              endDate: pastEnd,
            },
            link: path,
          },
        ]),
      );
      expect(centre.unread).toBe(2);
    }
    await expectToldNothing(t.app, notSoon, {
      template: 'licenseExpiresSoon',
      messageKey: 'notification.licenseExpiresSoon',
    });
    await expectToldNothing(t.app, notEnded, { template: 'licenseExpired', messageKey: 'notification.licenseExpired' });
    await expectToldNothing(t.app, silentOnes(notSoon));
    await expectToldNothing(t.app, silentOnes(notEnded));

    // the same day again: nothing new
    peer.received = [];
    await runSchedule();
    expect(peer.received).toEqual([]);
  });
});

describe('the boundaries, on a controlled clock', () => {
  it('tells once per licence and end date, on the day it enters its last 3 months and the day after it ends', async () => {
    const product = await createProduct(ctx.db, { name: 'Expiring Product' });
    const customer = await createCustomer(ctx.db, { name: 'Ending Corp' });
    const endDate = '2031-06-30';
    const licence = await createLicence(ctx.db, customer.id, product.key, { startDate: '2030-01-01', endDate });
    const owner = await member(t.app, customer.id, 'businessOwner');
    const tech = await member(t.app, customer.id, 'technicalContact', { flags: { notifyLicenseExpiresSoon: false } });

    // a day before its last 3 months: nothing
    expect(await runOn(addDays(addMonths(endDate, -3), -1))).toMatchObject({ expiresSoon: 0 });
    // the first day of its last 3 months, then again the same day and the next: once
    expect(await runOn(addMonths(endDate, -3))).toMatchObject({ expiresSoon: 1 });
    expect(await runOn(addMonths(endDate, -3))).toMatchObject({ expiresSoon: 0 });
    expect(await runOn(addDays(addMonths(endDate, -3), 1))).toMatchObject({ expiresSoon: 0 });
    expect(await subjects(owner.email)).toEqual([
      'The licence of Expiring Product for Ending Corp expires on 30 Jun 2031',
    ]);
    expect(await mailsTo(peer, tech.email)).toEqual([]);

    // on its end date it is still valid; the day after, it expired: once
    expect(await runOn(endDate)).toMatchObject({ expired: 0 });
    expect(await runOn(addDays(endDate, 1))).toMatchObject({ expired: 1 });
    expect(await runOn(addDays(endDate, 2))).toMatchObject({ expired: 0 });
    expect(await subjects(tech.email)).toEqual(['The licence of Expiring Product for Ending Corp has expired']);

    // a renewal through the API moves the end date: both notices are armed again for the new one
    const renewed = '2032-06-30';
    const renewal = await request(t.app, admin, {
      method: 'PATCH',
      url: `/api/licenses/${licence.id}`,
      payload: { accessLevel: 'stable', endDate: renewed, data: {} },
    });
    expect(renewal.statusCode).toBe(200);
    expect(await runOn(addDays(addMonths(renewed, -3), -1))).toMatchObject({ expiresSoon: 0 });
    expect(await runOn(addMonths(renewed, -3))).toMatchObject({ expiresSoon: 1 });
    expect(await runOn(addDays(renewed, 1))).toMatchObject({ expired: 1 });
    expect(await subjects(owner.email)).toEqual([
      'The licence of Expiring Product for Ending Corp expires on 30 Jun 2031',
      'The licence of Expiring Product for Ending Corp has expired',
      'The licence of Expiring Product for Ending Corp expires on 30 Jun 2032',
      'The licence of Expiring Product for Ending Corp has expired',
    ]);
    const centre = await centreOf(t.app, owner.cookie);
    expect(centre.data.map((n) => [n.messageKey, n.params.endDate])).toEqual([
      ['notification.licenseExpired', renewed],
      ['notification.licenseExpiresSoon', renewed],
      ['notification.licenseExpired', endDate],
      ['notification.licenseExpiresSoon', endDate],
    ]);
  });

  it('tells nothing of a notice whose licence was renewed before its fan-out ran', async () => {
    const product = await createProduct(ctx.db);
    const customer = await createCustomer(ctx.db);
    const licence = await createLicence(ctx.db, customer.id, product.key, { endDate: '2033-03-31' });
    const owner = await member(t.app, customer.id, 'businessOwner');
    await queueExpiryNotices(ctx, jobActor('test'), '2033-01-15');
    const renewal = await request(t.app, admin, {
      method: 'PATCH',
      url: `/api/licenses/${licence.id}`,
      payload: { accessLevel: 'stable', endDate: '2034-03-31', data: {} },
    });
    expect(renewal.statusCode).toBe(200);
    await settle();
    expect(await mailsTo(peer, owner.email)).toEqual([]);
  });

  it('counts UTC days across a daylight-saving change, whatever the time zone of the server', async () => {
    // Los Angeles moves to summer time on 2027-03-14 at 10:00 UTC. The schedule's slots (06:00 UTC)
    // fall the evening before there: a day counted in local time would be a day early.
    const schedule = SCHEDULED_JOBS.find((job) => job.name === LICENCE_EXPIRY_SCHEDULE)!;
    const slots = [new Date('2027-03-13T06:00:00Z')];
    for (let i = 0; i < 2; i++) slots.push(nextSlot({ cron: schedule.cron, timeZone: 'UTC' }, slots[i]));
    expect(slots.map((slot) => slot.toISOString())).toEqual([
      '2027-03-13T06:00:00.000Z',
      '2027-03-14T06:00:00.000Z',
      '2027-03-15T06:00:00.000Z',
    ]);

    const product = await createProduct(ctx.db, { name: 'Clocked Product' });
    const customer = await createCustomer(ctx.db, { name: 'Clocked Corp' });
    const owner = await member(t.app, customer.id, 'businessOwner');
    // one licence entering its last 3 months on each of those days, one ending on the change's day
    const entering = await Promise.all(
      ['2027-06-13', '2027-06-14', '2027-06-15'].map(async (endDate) => {
        const other = await createProduct(ctx.db);
        return createLicence(ctx.db, customer.id, other.key, { startDate: '2026-01-01', endDate });
      }),
    );
    const ending = await createLicence(ctx.db, customer.id, product.key, {
      startDate: '2026-01-01',
      endDate: '2027-03-14',
    });

    const zone = process.env.TZ;
    process.env.TZ = 'America/Los_Angeles';
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    try {
      for (const slot of slots) {
        vi.setSystemTime(slot);
        // the local calendar day is the one before
        expect(new Date().getDate()).toBe(slot.getUTCDate() - 1);
        await runSchedule();
      }
    } finally {
      vi.useRealTimers();
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }

    // each licence told on the UTC day its last 3 months begin, the ended one the UTC day after its end
    for (const [index, licence] of entering.entries()) {
      const told = await ctx.db
        .selectFrom('licenceExpiryNotices')
        .select(['kind', 'createdAt'])
        .where('licenceId', '=', licence.id)
        .execute();
      expect(told.map((notice) => [notice.kind, notice.createdAt.slice(0, 10)])).toEqual([
        ['expiresSoon', slots[index].toISOString().slice(0, 10)],
      ]);
    }
    expect(await noticesOf(ending.id)).toEqual([
      { kind: 'expiresSoon', endDate: '2027-03-14' },
      { kind: 'expired', endDate: '2027-03-14' },
    ]);
    const expired = await ctx.db
      .selectFrom('licenceExpiryNotices')
      .select('createdAt')
      .where('licenceId', '=', ending.id)
      .where('kind', '=', 'expired')
      .executeTakeFirstOrThrow();
    expect(expired.createdAt.slice(0, 10)).toBe('2027-03-15');
    expect((await subjects(owner.email)).filter((subject) => subject.includes('Clocked Product'))).toEqual([
      'The licence of Clocked Product for Clocked Corp expires on 14 Mar 2027',
      'The licence of Clocked Product for Clocked Corp has expired',
    ]);
  });

  it('tells of every licence once when a run takes more than one batch, each batch its own transaction', async () => {
    const product = await createProduct(ctx.db, { key: 'batched', name: 'Batched Product' });
    const now = new Date().toISOString();
    // 1,203 licences ending within three months of a far day: three batches of 500 and a remainder,
    // two of them on the same end date as a batch's edge
    const customers = await ctx.db
      .insertInto('customers')
      .values(
        Array.from({ length: 1203 }, (_, n) => ({
          name: `Batched ${n}`,
          customerKey: `BATCH${String(n).padStart(5, '0')}`,
          selfService: 0 as const,
          createdAt: now,
          updatedAt: now,
        })),
      )
      .returning('id')
      .execute();
    await ctx.db
      .insertInto('licences')
      .values(
        customers.map(({ id }, n) => ({
          customerId: id,
          productKey: product.key,
          startDate: '2040-01-01',
          endDate: addDays('2041-01-10', Math.floor(n / 20)),
          downloadSecret: `batched-${n}`,
          data: '{}',
          hasEntityResolution: 0 as const,
          accessLevel: 'stable' as const,
          createdAt: now,
          updatedAt: now,
        })),
      )
      .execute();
    expect(await queueExpiryNotices(ctx, jobActor('test'), '2041-01-01')).toEqual({ expiresSoon: 1203, expired: 0 });
    const noticed = await ctx.db
      .selectFrom('licenceExpiryNotices')
      .innerJoin('licences', 'licences.id', 'licenceExpiryNotices.licenceId')
      .where('licences.productKey', '=', product.key)
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.count<number>('licences.id').distinct().as('licences')])
      .executeTakeFirstOrThrow();
    expect([Number(noticed.n), Number(noticed.licences)]).toEqual([1203, 1203]);
    // a second run the same day tells nothing new
    expect(await queueExpiryNotices(ctx, jobActor('test'), '2041-01-01')).toEqual({ expiresSoon: 0, expired: 0 });
  }, 90_000);
});
