import type { InstanceCallbackAnswer } from '../../../common/api/instances';
import { InstanceCallbackBody } from '../../../common/api/instances';
import type { Actor } from '../../actor';
import type { AppContext } from '../../context';
import { badRequest, notFound, unauthenticated } from '../../http-error';
import { parseInput } from '../../validation';
import { SIGNATURE_TOLERANCE_SECONDS, verifyWebhookSignature } from '../webhooks/signature';
import { applyReport } from './reports';
import * as repo from './repo';

/**
 * An orchestrator's callback (`POST /api/instances/callback`, docs/instances.md). Its signature is
 * checked first, on the raw bytes, with the shared secret and a timestamp within five minutes of
 * now; then the event is applied once, whatever number of times it arrives: its id is recorded in
 * the transaction that applies it, and one already recorded changes nothing. A failure the
 * orchestrator reports is logged for operators and leaves the instance's status as it is.
 */
export async function receiveCallback(
  ctx: AppContext,
  actor: Actor,
  input: { rawBody: Buffer | undefined; signature: string | undefined },
): Promise<InstanceCallbackAnswer> {
  const orchestrator = ctx.config.instances.orchestrator;
  // without a configured orchestrator there is no secret to check against: nobody may call back
  if (!orchestrator) throw unauthenticated('No orchestrator is configured: callbacks are refused');
  const body = input.rawBody?.toString('utf8') ?? '';
  if (!verifyWebhookSignature(orchestrator.secret, input.signature, body)) {
    ctx.log.warn('orchestrator callback refused: missing, wrong or expired signature');
    throw unauthenticated('Missing, wrong or expired Portal-Signature');
  }
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw badRequest('The body is not JSON');
  }
  const parsed = parseInput(InstanceCallbackBody, json);
  if ('error' in parsed) throw parsed.error;
  const event = parsed.value;
  return ctx.db.transaction().execute(async (trx) => {
    if (!(await repo.findInstance(trx, event.instanceId))) throw notFound('Cloud instance not found');
    if (!(await repo.recordCallback(trx, event.id, event.instanceId))) return { applied: false };
    if (event.status === 'failed') {
      ctx.log.error(
        { instanceId: event.instanceId, eventId: event.id, error: event.error ?? null },
        'the orchestrator reports a failure of a cloud instance',
      );
      return { applied: false };
    }
    const result = await applyReport(ctx, trx, actor, {
      instanceId: event.instanceId,
      report: { status: event.status, ...(event.url ? { url: event.url } : {}) },
    });
    return { applied: result === 'applied' };
  });
}

/** The `purge.instance-callbacks` schedule: ids older than a day cannot come back with a valid signature. */
export async function purgeOldCallbacks(ctx: AppContext): Promise<number> {
  const horizonMs = Math.max(24 * 60 * 60, SIGNATURE_TOLERANCE_SECONDS * 2) * 1000;
  return repo.purgeCallbacks(ctx.db, new Date(Date.now() - horizonMs).toISOString());
}
