import type { DatabaseHandle } from '../db';
import { createPgBossStore } from './pg-boss-store';
import type { JobStore } from './store';
import { createSqliteStore } from './sqlite-store';

export { createJobRunner } from './runner';
export type { JobRunner, QueuedJobs, ScheduledJob } from './types';

/** Where the jobs of this database are kept (decision 063). */
export function storeFor(database: DatabaseHandle): JobStore {
  return database.dialect === 'postgres' ? createPgBossStore(database.db) : createSqliteStore(database.db);
}
