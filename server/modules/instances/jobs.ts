import type { JobRunner } from '../../jobs/types';
import {
  INSTANCE_CALLBACKS_PURGE,
  INSTANCE_DELETE_DATA_JOB,
  INSTANCE_ORDER_JOB,
  INSTANCE_SIMULATE_JOB,
} from './job-names';
import { startDataDeletion } from './lifecycle';
import { orderGaveUp, sendOrder } from './orders';
import { purgeOldCallbacks } from './callback';
import { playSimulatedStep } from './reports';

/** Declares the work of cloud instances on the job engine (server/jobs/index.ts calls it). */
export function defineInstanceJobs(jobs: JobRunner): void {
  jobs.define({
    name: INSTANCE_ORDER_JOB,
    // an attempt waits at most INSTANCE_ORCHESTRATOR's timeout (10 s) for its answer
    expireInSeconds: 60,
    // 13 attempts over about a day and a half: 30 s, 1 min, 2 min… doubling (with jitter)
    retryLimit: 12,
    retryDelaySeconds: 30,
    run: (ctx, _actor, payload) => sendOrder(ctx, payload),
    onFinalFailure: (ctx, _actor, payload, error) => orderGaveUp(ctx, payload, error),
  });
  jobs.define({
    name: INSTANCE_SIMULATE_JOB,
    retryLimit: 5,
    retryDelaySeconds: 10,
    run: (ctx, _actor, payload) => playSimulatedStep(ctx, payload),
  });
  jobs.define({
    name: INSTANCE_DELETE_DATA_JOB,
    retryLimit: 8,
    retryDelaySeconds: 60,
    run: (ctx, actor, payload) => startDataDeletion(ctx, actor, payload),
  });
  jobs.schedule({ name: INSTANCE_CALLBACKS_PURGE, cron: '35 * * * *', run: (ctx) => purgeOldCallbacks(ctx) });
}
