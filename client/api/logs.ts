import { queryOptions } from '@tanstack/react-query';
import { LogList } from '../../common/api/logs';
import type { AuditAction } from '../../common/audit';
import { customerKeys } from './customers';
import { api, buildUrl } from './client';

export interface LogPosition {
  offset: number;
  action: AuditAction | null;
}

/** Query keys of a customer's recent actions: under the customer's key, so reloading it reloads them. */
export const logKeys = {
  all: (customerId: number) => [...customerKeys.one(customerId), 'logs'] as const,
  page: (customerId: number, position: LogPosition) => [...logKeys.all(customerId), position] as const,
};

const listLogs = (customerId: number, position: LogPosition, pageLength: number) =>
  api.get(`/customers/${customerId}/logs`, {
    query: { pageOffset: position.offset, pageLength, action: position.action },
    schema: LogList,
  });

export const logPageQuery = (customerId: number, position: LogPosition, pageLength: number) =>
  queryOptions({
    queryKey: logKeys.page(customerId, position),
    queryFn: () => listLogs(customerId, position, pageLength),
  });

/** The export of the entries the filter keeps: a plain link, the browser downloads the stream. */
export const logExportUrl = (customerId: number, action: AuditAction | null) =>
  buildUrl(`/customers/${customerId}/logs.csv`, { action });
