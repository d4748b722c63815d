import type { AppContext } from '../../context';
import { kindsOfKey, STORED_FILE_KINDS, type StoredFileKind } from '../../stored-file-kinds';

/**
 * How long a file must have been left alone before the sweep takes it: an upload under way writes
 * its file all along, and a finished one gets its row within moments of its last write.
 */
export const SWEEP_GRACE_MS = 15 * 60_000;

const BATCH = 500;

/**
 * Removes what a process killed mid-upload leaves behind: unfinished uploads, and stored files whose
 * upload finished but whose row was never written (or was written by a transaction that failed). Run
 * at start and every hour (server/job-kinds.ts). A file is removed only when its key fits a kind of
 * `server/stored-file-kinds.ts` and no kind it fits still refers to it: files in use, and objects
 * whose key fits no declared kind, are never touched.
 */
export async function sweepStorage(
  ctx: AppContext,
  now = new Date(),
  kinds: readonly StoredFileKind[] = STORED_FILE_KINDS,
): Promise<{ abandonedUploads: number; orphans: number }> {
  const cutoff = new Date(now.getTime() - SWEEP_GRACE_MS);
  const abandonedUploads = await ctx.storage.removeAbandonedUploads(cutoff);

  let orphans = 0;
  let batch: { key: string; kinds: StoredFileKind[] }[] = [];
  const sweepBatch = async () => {
    const inUse = new Set<string>();
    for (const kind of kinds) {
      const keys = batch.filter((file) => file.kinds.includes(kind)).map((file) => file.key);
      if (keys.length === 0) continue;
      for (const key of await kind.inUse(ctx.db, keys)) inUse.add(key);
    }
    for (const { key } of batch) {
      if (inUse.has(key)) continue;
      await ctx.storage.remove(key);
      orphans++;
    }
    batch = [];
  };
  for await (const object of ctx.storage.list()) {
    if (object.modifiedAt >= cutoff) continue;
    const kindsOfFile = kindsOfKey(object.key, kinds);
    if (kindsOfFile.length === 0) continue;
    batch.push({ key: object.key, kinds: kindsOfFile });
    if (batch.length === BATCH) await sweepBatch();
  }
  if (batch.length > 0) await sweepBatch();

  if (abandonedUploads + orphans > 0) {
    ctx.log.info({ abandonedUploads, orphans }, 'storage swept: unfinished uploads and files no row refers to removed');
  }
  return { abandonedUploads, orphans };
}
