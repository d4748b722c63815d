import type { AppContext } from '../../context';
import { knownStorageKeys } from './repo';

/**
 * How long a file must have been left alone before the sweep takes it: an upload under way writes
 * its file all along, and a finished one gets its row within moments of its last write.
 */
export const SWEEP_GRACE_MS = 15 * 60_000;

/** The portal's own keys: `product/version/platform/uuid` (service.ts). Nothing else is touched. */
const PORTAL_KEY = /^[^/]+\/[^/]+\/[^/]+\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const BATCH = 500;

/**
 * Removes what a process killed mid-upload leaves behind: unfinished uploads, and files whose upload
 * finished but whose row was never written (or was written by a transaction that failed). Run at
 * start and every hour (server/jobs). Files with a row, and objects whose key is not the portal's,
 * are never touched.
 */
export async function sweepStorage(
  ctx: AppContext,
  now = new Date(),
): Promise<{ abandonedUploads: number; orphans: number }> {
  const cutoff = new Date(now.getTime() - SWEEP_GRACE_MS);
  const abandonedUploads = await ctx.storage.removeAbandonedUploads(cutoff);

  let orphans = 0;
  let batch: string[] = [];
  const sweepBatch = async () => {
    const known = await knownStorageKeys(ctx.db, batch);
    for (const key of batch) {
      if (known.has(key)) continue;
      await ctx.storage.remove(key);
      orphans++;
    }
    batch = [];
  };
  for await (const object of ctx.storage.list()) {
    if (!PORTAL_KEY.test(object.key) || object.modifiedAt >= cutoff) continue;
    batch.push(object.key);
    if (batch.length === BATCH) await sweepBatch();
  }
  if (batch.length > 0) await sweepBatch();

  if (abandonedUploads + orphans > 0) {
    ctx.log.info({ abandonedUploads, orphans }, 'storage swept: unfinished uploads and files without a row removed');
  }
  return { abandonedUploads, orphans };
}
