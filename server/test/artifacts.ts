import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Platform } from '../../common/domain';
import { type DB, nowIso } from '../db';
import { hashToken, TOKEN_PREFIX } from '../modules/artifacts/tokens';
import { insertArtifact } from '../modules/catalogue/repo';
import { createVersion } from './factories';

/** An unpublished version of the product, without artifacts: one whose artifacts may be uploaded. */
export async function createUnpublishedVersion(db: DB, productKey: string, semVer?: string): Promise<number> {
  const { id } = await createVersion(db, productKey, semVer ? { semVer } : {});
  await db.updateTable('versions').set({ published: 0, releaseDate: null }).where('id', '=', id).execute();
  return id;
}

/** Every file under a folder, as relative paths (the local artifact store's content). */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .flatMap((entry) => (entry.isFile() ? [path.relative(dir, path.join(entry.parentPath, entry.name))] : []))
    .sort();
}

/** A live API token of the product, as creating one through the API gives. */
export async function createProductToken(db: DB, productKey: string): Promise<{ id: number; token: string }> {
  const token = TOKEN_PREFIX + crypto.randomBytes(32).toString('base64url');
  const { id } = await db
    .insertInto('productTokens')
    .values({ productKey, name: 'Test token', tokenHash: hashToken(token), createdBy: null, createdAt: nowIso() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id, token };
}

/** An artifact row of the version (its bytes are not stored). */
export async function addArtifactRow(db: DB, versionId: number, platform: Platform) {
  return insertArtifact(db, {
    versionId,
    platform,
    fileName: `file-${platform}.zip`,
    storageKey: `test/${versionId}/${platform}`,
    size: 0,
    sha256: crypto.createHash('sha256').update(`${versionId}${platform}`).digest('hex'),
  });
}
