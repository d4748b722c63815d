import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { DownloadAnalytics } from '../../common/api/analytics';
import { api } from './client';

export interface AnalyticsFilter {
  from: string;
  to: string;
  /** '' for every product */
  productKey: string;
}

/** `GET /api/analytics/downloads`: every figure of the range at once. */
export const analyticsQuery = (filter: AnalyticsFilter) =>
  queryOptions({
    queryKey: ['analytics', 'downloads', filter] as const,
    queryFn: ({ signal }) =>
      api.get('/analytics/downloads', { schema: DownloadAnalytics, query: { ...filter }, signal }),
    placeholderData: keepPreviousData,
  });
