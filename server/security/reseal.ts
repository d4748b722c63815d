import type { DB } from '../db';
import { openingSecretIndex, type SealPurpose, sealBytes, unsealBytes } from './seal';
import { replaceSealedValue, type SealedLocation, sealedValues } from './sealed-store';

/** A column of sealed values (server/security/seal.ts): where it is and the purpose sealed for. */
export interface SealedColumn extends SealedLocation {
  purpose: SealPurpose;
}

/**
 * After SESSION_SECRET changed (docs/security.md): every value of `columns` that opens only under a
 * previous secret is sealed again under the current one (`secrets[0]`), row by row, each write
 * guarded by the value read, so two nodes starting together cannot undo each other. Values that open
 * under no secret are left as they are (and counted): what reads them says so. Returns the counts.
 */
export async function resealUnderCurrentSecret(
  db: DB,
  secrets: readonly string[],
  columns: readonly SealedColumn[],
): Promise<{ resealed: number; unreadable: number }> {
  let resealed = 0;
  let unreadable = 0;
  if (secrets.length < 2) return { resealed, unreadable };
  for (const location of columns) {
    const { purpose } = location;
    for (const row of await sealedValues(db, location)) {
      const index = openingSecretIndex(secrets, purpose, row.value);
      if (index === 0) continue;
      if (index < 0) {
        unreadable++;
        continue;
      }
      const plain = unsealBytes(secrets[index], purpose, row.value)!;
      await replaceSealedValue(db, location, row.key, row.value, sealBytes(secrets[0], purpose, plain));
      resealed++;
    }
  }
  return { resealed, unreadable };
}
