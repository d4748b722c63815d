import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { secretDownloadPath } from '../../../common/api/catalogue';
import type { AppContext } from '../../context';
import {
  createCustomer,
  createInvitation,
  createLicence,
  createProduct,
  createVersionWithFiles,
  login,
  signedIn,
} from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';
import { makeJobsDue } from '../../test/jobs';
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
import { findLicence } from '../licences/repo';
import { DOWNLOAD_DIGEST_JOB } from './digest';

/**
 * The events of what people do (docs/notifications.md): downloads (the first one at once, all of them
 * in the window's digest), an accepted invitation, a published version. Each from its API call to the
 * mail the real SMTP peer received (in each recipient's language, with its links and List-Unsubscribe),
 * the entry in the recipient's notification centre, and nothing for whoever must not hear of it. The
 * licence and mail events have their file (events.test.ts).
 */
let t: TestApp;
let ctx: AppContext;
let peer: SmtpPeer;
let manager: string;
beforeAll(async () => {
  peer = new SmtpPeer();
  t = await createTestApp({ SMTP_URL: await peer.listen() });
  ctx = t.app.ctx;
  manager = (await signedIn(t.app, 'productManager')).cookie;
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

describe('notifyFirstProductDownload and notifyProductDownload', () => {
  it('tells the first download at once, every download in one digest per window, in each language', async () => {
    const product = await createProduct(ctx.db, { name: 'Graph Studio' });
    const customer = await createCustomer(ctx.db, { name: 'Acme Downloads' });
    const licence = await createLicence(ctx.db, customer.id, product.key);
    const version = await createVersionWithFiles(ctx, product.key, {
      semVer: '3.1.0',
      files: { linux: { bytes: crypto.randomBytes(512) } },
    });
    const french = await member(t.app, customer.id, 'technicalContact', { locale: 'fr' });
    const owner = await member(t.app, customer.id, 'businessOwner');
    const notFirst = await bystanders(t.app, customer.id, 'notifyFirstProductDownload', 'technicalContact');
    const notEvery = await bystanders(t.app, customer.id, 'notifyProductDownload', 'technicalContact');
    const path = `/accounts/${customer.id}`;

    // the owner downloads, then a pipeline with the secret URL
    const signed = await request(t.app, owner.cookie, {
      method: 'GET',
      url: `/api/download/linux?customerId=${customer.id}&versionId=${version.id}`,
    });
    expect(signed.statusCode).toBe(200);
    await settle();
    const secret = (await findLicence(ctx.db, licence.id))!.downloadSecret;
    const anonymous = await request(t.app, null, {
      method: 'GET',
      url: secretDownloadPath('linux', product.key, '3.1.0', secret),
    });
    expect(anonymous.statusCode).toBe(200);
    await settle();

    // the first download, told once; the digest still waits for the end of its window
    expect(await mailsTo(peer, french.email)).toHaveLength(1);
    const [first] = await mailsTo(peer, french.email);
    expectNotificationMail(first, {
      locale: 'fr',
      subject: 'Premier téléchargement de Graph Studio pour Acme Downloads',
      path,
    });
    expect(first.text).toContain(`version 3.1.0 pour Linux, par ${owner.email}.`);
    const [firstEn] = await mailsTo(peer, owner.email);
    expectNotificationMail(firstEn, {
      locale: 'en',
      subject: 'First download of Graph Studio for Acme Downloads',
      path,
    });
    expect(firstEn.text).toContain(`version 3.1.0 for Linux, by ${owner.email}.`);
    await expectToldNothing(t.app, notFirst, {
      template: 'firstProductDownload',
      messageKey: 'notification.firstProductDownload',
    });

    // the window ends: one mail per recipient listing both downloads
    peer.received = [];
    await makeJobsDue(ctx.db, DOWNLOAD_DIGEST_JOB);
    await settle();
    const [digest] = await mailsTo(peer, french.email);
    expectNotificationMail(digest, { locale: 'fr', subject: '2 téléchargements pour Acme Downloads', path });
    expect(digest.text).toMatch(/Graph Studio 3\.1\.0 \(Linux\), par anonyme, par lien secret/);
    expect(digest.text).toContain(`Graph Studio 3.1.0 (Linux), par ${owner.email}`);
    const [digestEn] = await mailsTo(peer, owner.email);
    expectNotificationMail(digestEn, { locale: 'en', subject: '2 downloads for Acme Downloads', path });
    expect(digestEn.text).toContain('Graph Studio 3.1.0 (Linux), by anonymous, by secret URL');
    expect(await mailsTo(peer, french.email)).toHaveLength(1);
    await expectToldNothing(t.app, notEvery, {
      template: 'productDownloadDigest',
      messageKey: 'notification.productDownload',
    });

    // in the notification centre: the digest's entry (one per version and platform) over the first download's
    const params = {
      customerId: customer.id,
      productKey: product.key,
      productName: 'Graph Studio',
      semVer: '3.1.0',
      platform: 'linux',
    };
    for (const person of [french, owner]) {
      const centre = await centreOf(t.app, person.cookie);
      expect(centre.data.map(({ messageKey, params, link }) => ({ messageKey, params, link }))).toEqual([
        { messageKey: 'notification.productDownload', params, link: path },
        { messageKey: 'notification.firstProductDownload', params, link: path },
      ]);
      expect(centre.unread).toBe(2);
    }
    // bystanders of both flags but the one who unticked only the other: nothing at all
    await expectToldNothing(t.app, silentOnes(notFirst));
    await expectToldNothing(t.app, silentOnes(notEvery));
    expect((await centreOf(t.app, await login(t.app, notFirst.unticked.email))).data.map((n) => n.messageKey)).toEqual([
      'notification.productDownload',
    ]);
    expect((await centreOf(t.app, await login(t.app, notEvery.unticked.email))).data.map((n) => n.messageKey)).toEqual([
      'notification.firstProductDownload',
    ]);
  });
});

describe('notifyInvitationAccepted', () => {
  it("tells the team's managers who joined, in their language, and neither the newcomer nor the others", async () => {
    const customer = await createCustomer(ctx.db, { name: 'Team Corp' });
    const owner = await member(t.app, customer.id, 'businessOwner', { locale: 'fr' });
    const executive = await member(t.app, customer.id, 'accountExecutive');
    const tech = await member(t.app, customer.id, 'technicalContact');
    const quiet = await bystanders(t.app, customer.id, 'notifyInvitationAccepted', 'businessOwner');
    const invitation = await createInvitation(ctx.db, customer.id, { inviterId: owner.id, fullName: 'Nora New' });

    const accepted = await request(t.app, null, {
      method: 'POST',
      url: `/api/invitations/${encodeURIComponent(invitation.key)}/new`,
      payload: { fullName: 'Nora New', password: 'Joining-Password-42!' },
    });
    expect(accepted.statusCode).toBe(200);
    // told once the acceptance committed, by the fan-out job
    expect(peer.received).toEqual([]);
    await settle();

    const path = `/accounts/${customer.id}`;
    const [toOwner] = await mailsTo(peer, owner.email);
    expectNotificationMail(toOwner, { locale: 'fr', subject: 'Nora New a rejoint Team Corp', path });
    expect(toOwner.text).toContain(`Nora New (${invitation.email}) a accepté l’invitation`);
    const [toExecutive] = await mailsTo(peer, executive.email);
    expectNotificationMail(toExecutive, { locale: 'en', subject: 'Nora New joined Team Corp', path });

    for (const person of [owner, executive]) {
      const centre = await centreOf(t.app, person.cookie);
      expect(centre.data).toMatchObject([
        {
          messageKey: 'notification.invitationAccepted',
          status: 'unread',
          params: {
            customerId: customer.id,
            customerName: 'Team Corp',
            memberFullName: 'Nora New',
            memberEmail: invitation.email,
          },
          link: path,
        },
      ]);
      expect(centre.unread).toBe(1);
    }
    const newcomer = await ctx.db
      .selectFrom('users')
      .select(['id', 'email'])
      .where('email', '=', invitation.email)
      .executeTakeFirstOrThrow();
    // a technical contact does not manage the team: not told either
    await expectToldNothing(t.app, { ...quiet, tech, newcomer });
  });
});

describe('notifyNewVersion', () => {
  it('tells the members whose licence allows the version, in their language, linking to their customer', async () => {
    const product = await createProduct(ctx.db, { name: 'Graph Engine' });
    const customer = await createCustomer(ctx.db, { name: 'Versioned Corp' });
    await createLicence(ctx.db, customer.id, product.key, { accessLevel: 'stable' });
    const french = await member(t.app, customer.id, 'technicalContact', { locale: 'fr' });
    const owner = await member(t.app, customer.id, 'businessOwner');
    const quiet = await bystanders(t.app, customer.id, 'notifyNewVersion', 'technicalContact');
    // a member of a customer without a licence of the product
    const elsewhere = await member(t.app, (await createCustomer(ctx.db)).id, 'technicalContact');

    const created = await request(t.app, manager, {
      method: 'POST',
      url: `/api/products/${product.key}/versions`,
      payload: { title: 'Release 4.2.0', semVer: '4.2.0', description: 'Notes' },
    });
    expect(created.statusCode).toBe(201);
    const published = await request(t.app, manager, {
      method: 'PATCH',
      url: `/api/versions/${created.json().id}`,
      payload: { published: true },
    });
    expect(published.statusCode).toBe(200);
    expect(peer.received).toEqual([]);
    await settle();

    const path = `/accounts/${customer.id}`;
    expectNotificationMail((await mailsTo(peer, french.email))[0], {
      locale: 'fr',
      subject: 'Graph Engine 4.2.0 est disponible',
      path,
    });
    expectNotificationMail((await mailsTo(peer, owner.email))[0], {
      locale: 'en',
      subject: 'Graph Engine 4.2.0 is available',
      path,
    });
    for (const person of [french, owner]) {
      expect(await mailsTo(peer, person.email)).toHaveLength(1);
      const centre = await centreOf(t.app, person.cookie);
      // the entry links where the mail does: the page of the customer whose licence allows the version
      expect(centre.data).toMatchObject([
        {
          messageKey: 'notification.newVersion',
          params: { productKey: product.key, productName: 'Graph Engine', semVer: '4.2.0' },
          link: path,
        },
      ]);
    }
    await expectToldNothing(t.app, { ...quiet, elsewhere });
  });
});
