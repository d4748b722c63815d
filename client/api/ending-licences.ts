import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { EndingLicenceList } from '../../common/api/licences';
import { api } from './client';

export const ENDING_LICENCES_PAGE_LENGTH = 10;

/** Query keys of the licences ending soon: one per page. */
export const endingLicenceKeys = {
  all: ['licences', 'ending'] as const,
  page: (pageOffset: number) => [...endingLicenceKeys.all, pageOffset] as const,
};

/** `GET /api/licenses/ending`: the licences ending in the next 90 days that the caller may renew, soonest first. */
const listEndingLicences = (pageOffset: number, signal?: AbortSignal) =>
  api.get('/licenses/ending', {
    schema: EndingLicenceList,
    query: { pageOffset, pageLength: ENDING_LICENCES_PAGE_LENGTH },
    signal,
  });

export const endingLicencesQuery = (pageOffset: number) =>
  queryOptions({
    queryKey: endingLicenceKeys.page(pageOffset),
    queryFn: ({ signal }) => listEndingLicences(pageOffset, signal),
    placeholderData: keepPreviousData,
  });
