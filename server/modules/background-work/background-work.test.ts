import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PAYLOAD_SUMMARY_MAX } from '../../../common/api/jobs';
import { MAIL_DELIVERY_JOB } from '../../mail';
import { createCustomer, signedIn } from '../../test/factories';
import { createTestApp, request, TEST_DIALECT, type TestApp } from '../../test/harness';
import { failedDownloadRecords, unrecordableDownload } from '../../test/jobs';
import { DOWNLOAD_RECORD_JOB } from '../downloads/service';
import { payloadSummary, REDACTED } from './service';

let t: TestApp;
let app: FastifyInstance;
let admin: { id: number; cookie: string };
/** the failed download records made for this file, newest first */
let failedIds: string[];

beforeAll(async () => {
  t = await createTestApp();
  app = t.app;
  admin = await signedIn(app, 'admin');
  failedIds = await failedDownloadRecords(app.ctx, 3);
});
afterAll(async () => t?.close());

const asAdmin = (options: Parameters<typeof request>[2]) => request(app, admin.cookie, options);
const countsOf = async (name: string) =>
  (await asAdmin({ method: 'GET', url: '/api/jobs' })).json().data.find((row: { name: string }) => row.name === name);

describe(`who may see and handle the background work (${TEST_DIALECT})`, () => {
  const calls = () => [
    { method: 'GET' as const, url: '/api/jobs' },
    { method: 'GET' as const, url: '/api/jobs/failed' },
    { method: 'POST' as const, url: `/api/jobs/${DOWNLOAD_RECORD_JOB}/${failedIds[0]}/retry` },
    { method: 'POST' as const, url: `/api/jobs/${DOWNLOAD_RECORD_JOB}/${failedIds[0]}/discard` },
  ];

  it('answers 401 to anonymous callers', async () => {
    for (const options of calls()) expect((await request(app, null, options)).statusCode).toBe(401);
  });

  it('answers 403 to everyone but admins, and leaves the failed job alone', async () => {
    const customer = await createCustomer(app.ctx.db);
    const actors = [
      await signedIn(app, 'productManager'),
      await signedIn(app, 'supportEngineer'),
      await signedIn(app, 'accountExecutive', { id: customer.id, role: 'accountExecutive' }),
      await signedIn(app, 'client', { id: customer.id, role: 'businessOwner' }),
    ];
    for (const actor of actors) {
      for (const options of calls()) {
        const response = await request(app, actor.cookie, options);
        expect(response.statusCode, `${actor.email} ${options.method} ${options.url}`).toBe(403);
        expect(response.json().error.code).toBe('forbidden');
      }
    }
    expect((await app.ctx.jobs.failed({ limit: 10, offset: 0, name: DOWNLOAD_RECORD_JOB })).total).toBe(3);
  });
});

describe('GET /api/jobs', () => {
  it('lists every declared name, those without any job at 0', async () => {
    const response = await asAdmin({ method: 'GET', url: '/api/jobs' });
    expect(response.statusCode).toBe(200);
    const rows: { name: string }[] = response.json().data;
    expect(rows.map((row) => row.name).sort()).toEqual([...app.ctx.jobs.names()].sort());
    expect(rows.map((row) => row.name)).toEqual(expect.arrayContaining([MAIL_DELIVERY_JOB, 'purge.sessions']));
    expect(rows.find((row) => row.name === 'sweep.storage')).toEqual({
      name: 'sweep.storage',
      queued: 0,
      active: 0,
      failed: 0,
      completed: 0,
    });
  });

  it('counts waiting work as queued and failed work as failed', async () => {
    const before = await countsOf(DOWNLOAD_RECORD_JOB);
    expect(before.failed).toBeGreaterThanOrEqual(3);
    await app.ctx.jobs.enqueue(app.ctx.db, DOWNLOAD_RECORD_JOB, unrecordableDownload(), {
      runAt: new Date(Date.now() + 3_600_000),
    });
    expect(await countsOf(DOWNLOAD_RECORD_JOB)).toEqual({ ...before, queued: before.queued + 1 });
  });
});

describe('GET /api/jobs/failed', () => {
  it('pages the failed jobs in the one list envelope, each with its error, attempts, dates and a redacted payload', async () => {
    const response = await asAdmin({ method: 'GET', url: `/api/jobs/failed?name=${DOWNLOAD_RECORD_JOB}` });
    expect(response.statusCode).toBe(200);
    const list = response.json();
    expect(list).toMatchObject({ offset: 0, total: 3, totalCapped: false });
    expect(list.data.map((job: { id: string }) => job.id)).toEqual(failedIds);
    const [job] = list.data;
    expect(job).toEqual({
      id: failedIds[0],
      name: DOWNLOAD_RECORD_JOB,
      error: expect.stringMatching(/\S/),
      // the first attempt and the kind's 10 retries
      attempts: 11,
      payloadSummary: expect.any(String),
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      failedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(job.payloadSummary.length).toBeLessThanOrEqual(PAYLOAD_SUMMARY_MAX);
    expect(job.payloadSummary).not.toContain('hunter2');
    expect(job.payloadSummary).toContain(`"url":"${REDACTED}"`);
    expect(job.payloadSummary).toContain(`"productKey":"${REDACTED}"`);
    expect(job.payloadSummary).toContain('"productName":"Nothing"');

    const second = await asAdmin({
      method: 'GET',
      url: `/api/jobs/failed?name=${DOWNLOAD_RECORD_JOB}&pageOffset=1&pageLength=1`,
    });
    expect(second.json()).toMatchObject({ offset: 1, total: 3, data: [{ id: failedIds[1] }] });
  });

  it('lists every name without a filter, and nothing for a name without failures or not declared', async () => {
    const all = await asAdmin({ method: 'GET', url: '/api/jobs/failed?pageLength=100' });
    expect(all.json().total).toBeGreaterThanOrEqual(3);
    for (const name of [MAIL_DELIVERY_JOB, 'no.such.job']) {
      const none = await asAdmin({ method: 'GET', url: `/api/jobs/failed?name=${encodeURIComponent(name)}` });
      expect(none.statusCode).toBe(200);
      expect(none.json()).toEqual({ data: [], offset: 0, total: 0, totalCapped: false });
    }
  });

  it('refuses a page length beyond the limit (400)', async () => {
    const response = await asAdmin({ method: 'GET', url: '/api/jobs/failed?pageLength=101' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details[0].path).toBe('pageLength');
  });
});

describe('retrying and discarding a failed job', () => {
  it('queues a failed job again (204), logged; a second retry finds it no longer failed (404)', async () => {
    const info = vi.spyOn(app.ctx.log, 'info');
    const id = failedIds[0];
    const before = await countsOf(DOWNLOAD_RECORD_JOB);
    const retried = await asAdmin({ method: 'POST', url: `/api/jobs/${DOWNLOAD_RECORD_JOB}/${id}/retry` });
    expect(retried.statusCode).toBe(204);
    expect(retried.body).toBe('');
    expect(info).toHaveBeenCalledWith(
      expect.objectContaining({ job: DOWNLOAD_RECORD_JOB, jobId: id, by: `user:${admin.id}` }),
      expect.stringContaining('queued again'),
    );
    info.mockRestore();
    expect(await countsOf(DOWNLOAD_RECORD_JOB)).toMatchObject({ queued: before.queued + 1, failed: before.failed - 1 });
    const ids = (await asAdmin({ method: 'GET', url: `/api/jobs/failed?name=${DOWNLOAD_RECORD_JOB}` }))
      .json()
      .data.map((job: { id: string }) => job.id);
    expect(ids).not.toContain(id);

    const again = await asAdmin({ method: 'POST', url: `/api/jobs/${DOWNLOAD_RECORD_JOB}/${id}/retry` });
    expect(again.statusCode).toBe(404);
    expect(again.json().error.code).toBe('not_found');
  });

  it('deletes a failed job (204); a second discard, or a retry of it, is a 404', async () => {
    const id = failedIds[1];
    const discarded = await asAdmin({ method: 'POST', url: `/api/jobs/${DOWNLOAD_RECORD_JOB}/${id}/discard` });
    expect(discarded.statusCode).toBe(204);
    const { items } = await app.ctx.jobs.failed({ limit: 100, offset: 0, name: DOWNLOAD_RECORD_JOB });
    expect(items.map((job) => job.id)).not.toContain(id);
    for (const action of ['discard', 'retry']) {
      const response = await asAdmin({ method: 'POST', url: `/api/jobs/${DOWNLOAD_RECORD_JOB}/${id}/${action}` });
      expect(response.statusCode, action).toBe(404);
      expect(response.json().error.code).toBe('not_found');
    }
  });

  it('answers 404 for a job under another or an unknown name, and 400 for an id no job can have', async () => {
    const id = failedIds[2];
    for (const name of [MAIL_DELIVERY_JOB, 'no.such.job']) {
      for (const action of ['retry', 'discard']) {
        const response = await asAdmin({ method: 'POST', url: `/api/jobs/${name}/${id}/${action}` });
        expect(response.statusCode, `${name} ${action}`).toBe(404);
      }
    }
    const malformed = await asAdmin({ method: 'POST', url: `/api/jobs/${DOWNLOAD_RECORD_JOB}/1%27%20OR%201=1/retry` });
    expect(malformed.statusCode).toBe(400);
    // still failed: nothing above touched it
    expect(
      (await app.ctx.jobs.failed({ limit: 100, offset: 0, name: DOWNLOAD_RECORD_JOB })).items.map((j) => j.id),
    ).toContain(id);
  });
});

describe('payloadSummary', () => {
  it('redacts values under keys that may hold a secret, at any depth and in any case', () => {
    const summary = payloadSummary({
      mailId: 12,
      Token: 'a',
      nested: { apiKey: 'b', items: [{ PASSWORD: 'c', resetLink: 'd', callbackUrl: 'e', clientSecret: 'f' }] },
      note: 'kept',
    });
    expect(JSON.parse(summary)).toEqual({
      mailId: 12,
      Token: REDACTED,
      nested: {
        apiKey: REDACTED,
        items: [{ PASSWORD: REDACTED, resetLink: REDACTED, callbackUrl: REDACTED, clientSecret: REDACTED }],
      },
      note: 'kept',
    });
  });

  it('cuts a long payload to the limit with an ellipsis, and writes any payload', () => {
    const summary = payloadSummary({ text: 'x'.repeat(500) });
    expect(summary).toHaveLength(PAYLOAD_SUMMARY_MAX);
    expect(summary.endsWith('…')).toBe(true);
    expect(payloadSummary(null)).toBe('null');
    expect(payloadSummary(undefined)).toBe('null');
    expect(payloadSummary({ slot: '2026-01-01T00:00:00.000Z' })).toBe('{"slot":"2026-01-01T00:00:00.000Z"}');
  });
});
