// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FailedJobItem, JobCounts } from '../../../common/api/jobs';
import { formatDateTime } from '../../../common/format';
import { BACKGROUND_WORK_POLL_MS } from '../../api/jobs';
import { SMALL_SCREEN_QUERY } from '../../components/layout';
import { toastHistory } from '../../components/notify';
import { apiError, type FakeAnswer, fakeApi } from '../../test/fake-api';
import { fakeMatchMedia } from '../../test/media';
import { CurrentLocation, renderPage } from '../../test/render';
import { BackgroundWorkPage } from './BackgroundWorkPage';

const counts: JobCounts[] = [
  { name: 'mail.deliver', queued: 2, active: 1, failed: 1, completed: 40 },
  { name: 'downloads.record', queued: 0, active: 0, failed: 11, completed: 7 },
  { name: 'purge.sessions', queued: 0, active: 0, failed: 0, completed: 0 },
];

const failedJob = (n: number, name = 'downloads.record'): FailedJobItem => ({
  id: String(n),
  name,
  error: `insert violates foreign key constraint (${n})`,
  attempts: 11,
  payloadSummary: `{"url":"[redacted]","n":${n}}`,
  createdAt: '2026-03-04T08:05:00.000Z',
  failedAt: '2026-03-04T09:30:00.000Z',
});

/** GET /api/jobs/failed as the server answers it: of one name if asked, one page. */
function failedAnswer(query: URLSearchParams, jobs: FailedJobItem[]): FakeAnswer {
  const name = query.get('name');
  const matches = jobs.filter((job) => !name || job.name === name);
  const offset = Number(query.get('pageOffset') ?? 0);
  const length = Number(query.get('pageLength') ?? 10);
  return {
    status: 200,
    body: { data: matches.slice(offset, offset + length), offset, total: matches.length, totalCapped: false },
  };
}

const fakeJobs = (jobs: FailedJobItem[] = [failedJob(1), failedJob(2, 'mail.deliver')]) =>
  fakeApi({
    'GET /api/jobs': () => ({ status: 200, body: { data: counts } }),
    'GET /api/jobs/failed': ({ query }) => failedAnswer(query, jobs),
  });

const renderBackgroundWork = (path = '/en/background-work') =>
  renderPage(
    <>
      <BackgroundWorkPage />
      <CurrentLocation />
    </>,
    { path, route: '/:locale/background-work' },
  );

const search = () => screen.getByTestId('location').getAttribute('data-search');

afterEach(() => {
  vi.useRealTimers();
  window.matchMedia = fakeMatchMedia();
});

describe('BackgroundWorkPage', () => {
  it('shows each kind of work with its counts, then the failed jobs with error, attempts, dates and payload', async () => {
    fakeJobs();
    renderBackgroundWork();
    expect(screen.getByRole('heading', { level: 1, name: 'Background work' })).toBeTruthy();
    const rows = await screen.findAllByTestId('job-count-row');
    expect(rows.map((row) => Array.from(row.children).map((cell) => cell.textContent))).toEqual([
      ['mail.deliver', '2', '1', '1', '40'],
      ['downloads.record', '0', '0', '11', '7'],
      ['purge.sessions', '0', '0', '0', '0'],
    ]);
    // the job name heads its row
    expect(within(rows[0]).getByRole('rowheader').textContent).toBe('mail.deliver');
    expect(document.title).toBe('Background work · Graph Portal');

    const failed = await screen.findAllByTestId('failed-job-row');
    expect(failed).toHaveLength(2);
    const first = within(failed[0]);
    expect(first.getByText('downloads.record')).toBeTruthy();
    expect(first.getByText('insert violates foreign key constraint (1)')).toBeTruthy();
    expect(first.getByText('11')).toBeTruthy();
    expect(first.getByText('{"url":"[redacted]","n":1}')).toBeTruthy();
    // logs' format: DD MMM YYYY HH:mm in the viewer's time zone
    const times = failed[0].querySelectorAll('time');
    expect(Array.from(times).map((el) => [el.getAttribute('datetime'), el.textContent])).toEqual([
      ['2026-03-04T08:05:00.000Z', formatDateTime('2026-03-04T08:05:00.000Z', 'en')],
      ['2026-03-04T09:30:00.000Z', formatDateTime('2026-03-04T09:30:00.000Z', 'en')],
    ]);
    expect(screen.getByTestId('failed-jobs-count').textContent).toBe('2 failed jobs');
    expect(first.getByRole('button', { name: 'Retry downloads.record job 1' })).toBeTruthy();
    expect(first.getByRole('button', { name: 'Discard downloads.record job 1' })).toBeTruthy();
  });

  it('says so when no job failed', async () => {
    fakeJobs([]);
    renderBackgroundWork();
    const empty = await screen.findByTestId('failed-jobs-empty');
    expect(empty.textContent).toBe('No failed jobs');
    expect(empty.getAttribute('role')).toBe('status');
    expect(screen.queryByTestId('failed-jobs')).toBeNull();
  });

  it('keeps the name filter and the page in the address, a new name starting from the first page', async () => {
    const jobs = Array.from({ length: 13 }, (_, i) => failedJob(i + 1));
    const api = fakeJobs([...jobs, failedJob(99, 'mail.deliver')]);
    renderBackgroundWork('/en/background-work?page=2');
    await waitFor(() => expect(screen.getAllByTestId('failed-job-row')).toHaveLength(4));
    expect(api.calls('GET /api/jobs/failed')[0].query.get('pageOffset')).toBe('10');
    expect(screen.getByText('Page 2 of 2')).toBeTruthy();

    const select = await screen.findByLabelText('Kind of job');
    await waitFor(() => expect(within(select).getAllByRole('option')).toHaveLength(4));
    fireEvent.change(select, { target: { value: 'mail.deliver' } });
    await waitFor(() => expect(search()).toBe('?name=mail.deliver'));
    await waitFor(() => expect(screen.getAllByTestId('failed-job-row')).toHaveLength(1));
    const last = api.calls('GET /api/jobs/failed').at(-1)!;
    expect([last.query.get('name'), last.query.get('pageOffset')]).toEqual(['mail.deliver', '0']);

    fireEvent.change(select, { target: { value: '' } });
    await waitFor(() => expect(search()).toBe(''));
    await waitFor(() => expect(screen.getAllByTestId('failed-job-row')).toHaveLength(10));
  });

  it('retries a failed job at once, tells so, and reloads the list', async () => {
    let jobs = [failedJob(1), failedJob(2, 'mail.deliver')];
    const retried = vi.fn((): FakeAnswer => {
      jobs = jobs.filter((job) => job.id !== '1');
      return { status: 204 };
    });
    fakeApi({
      'GET /api/jobs': () => ({ status: 200, body: { data: counts } }),
      'GET /api/jobs/failed': ({ query }) => failedAnswer(query, jobs),
      'POST /api/jobs/downloads.record/1/retry': retried,
    });
    renderBackgroundWork();
    const [row] = await screen.findAllByTestId('failed-job-row');
    fireEvent.click(within(row).getByRole('button', { name: 'Retry downloads.record job 1' }));
    await waitFor(() => expect(retried).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(screen.getAllByTestId('failed-job-row')).toHaveLength(1));
    expect(toastHistory.getSnapshot()[0]).toMatchObject({
      status: 'success',
      message: 'The downloads.record job was queued again.',
    });
  });

  it('discards a failed job only once confirmed, and says why when it could not', async () => {
    let discards = 0;
    fakeApi({
      'GET /api/jobs': () => ({ status: 200, body: { data: counts } }),
      'GET /api/jobs/failed': ({ query }) => failedAnswer(query, [failedJob(1)]),
      'POST /api/jobs/downloads.record/1/discard': () => {
        discards += 1;
        return apiError(404, 'not_found', 'No failed job with this name and id');
      },
    });
    renderBackgroundWork();
    const [row] = await screen.findAllByTestId('failed-job-row');
    fireEvent.click(within(row).getByRole('button', { name: 'Discard downloads.record job 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Discard the failed job' });
    expect(within(dialog).getByText(/Discard the downloads.record job 1\? It will not run again/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(discards).toBe(0);

    fireEvent.click(within(row).getByRole('button', { name: 'Discard downloads.record job 1' }));
    fireEvent.click(await screen.findByTestId('failed-job-discard-yes'));
    await waitFor(() => expect(discards).toBe(1));
    await waitFor(() =>
      expect(toastHistory.getSnapshot()[0]).toMatchObject({
        status: 'error',
        message: 'This job is no longer failed: it was retried, discarded or cleared meanwhile.',
      }),
    );
  });

  it('says what went wrong when a retry fails for another reason', async () => {
    fakeApi({
      'GET /api/jobs': () => ({ status: 200, body: { data: counts } }),
      'GET /api/jobs/failed': ({ query }) => failedAnswer(query, [failedJob(1)]),
      'POST /api/jobs/downloads.record/1/retry': () => 'network-error',
    });
    renderBackgroundWork();
    const [row] = await screen.findAllByTestId('failed-job-row');
    fireEvent.click(within(row).getByTestId('failed-job-retry'));
    await waitFor(() =>
      expect(toastHistory.getSnapshot()[0]).toMatchObject({
        status: 'error',
        message: expect.stringMatching(/^The job could not be queued again: /),
      }),
    );
  });

  it('shows a load error with a retry for each part', async () => {
    let fail = true;
    fakeApi({
      'GET /api/jobs': () =>
        fail ? apiError(500, 'internal', 'Database unavailable') : { status: 200, body: { data: counts } },
      'GET /api/jobs/failed': () => (fail ? 'network-error' : failedAnswer(new URLSearchParams(), [])),
    });
    renderBackgroundWork();
    const countsError = await screen.findByTestId('job-counts-error');
    expect(countsError.getAttribute('role')).toBe('alert');
    expect(countsError.textContent).toContain('The job counts could not be loaded');
    expect((await screen.findByTestId('failed-jobs-error')).textContent).toContain(
      'The failed jobs could not be loaded',
    );
    fail = false;
    fireEvent.click(within(countsError).getByRole('button', { name: 'Try again' }));
    expect(await screen.findAllByTestId('job-count-row')).toHaveLength(3);
  });

  it('asks again every 10 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = fakeJobs();
    renderBackgroundWork();
    await screen.findAllByTestId('failed-job-row');
    const before = [api.calls('GET /api/jobs').length, api.calls('GET /api/jobs/failed').length];
    await act(() => vi.advanceTimersByTimeAsync(BACKGROUND_WORK_POLL_MS + 100));
    expect(api.calls('GET /api/jobs').length).toBe(before[0] + 1);
    expect(api.calls('GET /api/jobs/failed').length).toBe(before[1] + 1);
  });

  it('lays both tables out as cards on a phone, in French', async () => {
    window.matchMedia = fakeMatchMedia((query) => query === SMALL_SCREEN_QUERY);
    fakeJobs();
    renderBackgroundWork('/fr/background-work');
    expect(screen.getByRole('heading', { level: 1, name: 'Tâches de fond' })).toBeTruthy();
    await screen.findAllByTestId('failed-job-row');
    const layouts = screen.getAllByTestId('table-scroller').map((box) => box.getAttribute('data-layout'));
    expect(layouts).toEqual(['cards', 'cards']);
    const [row] = screen.getAllByTestId('failed-job-row');
    expect(within(row).getByRole('button', { name: 'Relancer la tâche downloads.record 1' })).toBeTruthy();
  });
});
