import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { FailedJobList, JobCountsList } from '../../common/api/jobs';
import { api } from './client';

/**
 * How often the Background work page asks again while it is shown (react-query pauses the interval
 * while the tab is hidden): jobs run and fail on their own, and nothing pushes their news.
 */
export const BACKGROUND_WORK_POLL_MS = 10_000;

interface FailedJobsPosition {
  offset: number;
  /** '' for every name */
  name: string;
}

/** Query keys of the page: a retry or a discard invalidates everything under jobKeys.all. */
export const jobKeys = {
  all: ['jobs'] as const,
  counts: () => ['jobs', 'counts'] as const,
  failed: (position: FailedJobsPosition) => ['jobs', 'failed', position] as const,
};

/** `GET /api/jobs`: every declared name with its jobs by state. */
export const jobCountsQuery = () =>
  queryOptions({
    queryKey: jobKeys.counts(),
    queryFn: ({ signal }) => api.get('/jobs', { schema: JobCountsList, signal }),
    refetchInterval: BACKGROUND_WORK_POLL_MS,
  });

/** `GET /api/jobs/failed`: one page of the failed jobs, of one name or all. */
export const failedJobsQuery = (position: FailedJobsPosition, pageLength: number) =>
  queryOptions({
    queryKey: jobKeys.failed(position),
    queryFn: ({ signal }) =>
      api.get('/jobs/failed', {
        schema: FailedJobList,
        query: { pageOffset: position.offset, pageLength, name: position.name || undefined },
        signal,
      }),
    placeholderData: keepPreviousData,
    refetchInterval: BACKGROUND_WORK_POLL_MS,
  });

const jobPath = (job: { name: string; id: string }, action: 'retry' | 'discard') =>
  `/jobs/${encodeURIComponent(job.name)}/${encodeURIComponent(job.id)}/${action}`;

export const retryFailedJob = (job: { name: string; id: string }) => api.post<void>(jobPath(job, 'retry'), undefined);

export const discardFailedJob = (job: { name: string; id: string }) =>
  api.post<void>(jobPath(job, 'discard'), undefined);
