import { queryOptions } from '@tanstack/react-query';
import { Instance, InstanceList } from '../../common/api/instances';
import { INSTANCE_STATUSES_IN_PROGRESS } from '../../common/instances';
import { DEFAULT_PAGE_LENGTH } from '../../common/pagination';
import { customerKeys } from './customers';
import { api } from './client';

/** Query keys of a customer's cloud instances: under the customer's key, so reloading it reloads them. */
export const instanceKeys = {
  all: (customerId: number) => [...customerKeys.one(customerId), 'instances'] as const,
  page: (customerId: number, offset: number) => [...instanceKeys.all(customerId), offset] as const,
};

/** The section shows ten instances at a time, as the customer page's answer brings them. */
export const INSTANCES_PAGE_LENGTH = DEFAULT_PAGE_LENGTH;

/** While an instance is on its way (creating, provisioning, deleting) the list is asked again this often. */
export const INSTANCES_POLL_MS = 3000;

const listInstances = (customerId: number, offset: number) =>
  api.get(`/customers/${customerId}/instances`, {
    query: { pageOffset: offset, pageLength: INSTANCES_PAGE_LENGTH },
    schema: InstanceList,
  });

/** Whether a page holds an instance that moves on by itself: its screen then polls. */
export const inProgress = (list: InstanceList | undefined): boolean =>
  list?.data.some((instance) => INSTANCE_STATUSES_IN_PROGRESS.includes(instance.status)) ?? false;

export const instancesQuery = (customerId: number, offset: number) =>
  queryOptions({
    queryKey: instanceKeys.page(customerId, offset),
    queryFn: () => listInstances(customerId, offset),
    // a user sees an instance become ready without reloading; nothing is asked once none is on its way
    refetchInterval: (query) => (inProgress(query.state.data) ? INSTANCES_POLL_MS : false),
  });

export const archiveInstance = (id: number) => api.post(`/instances/${id}/archive`, undefined, { schema: Instance });
export const restoreInstance = (id: number) => api.post(`/instances/${id}/restore`, undefined, { schema: Instance });
