import type { Selectable } from 'kysely';
import { type DB, nowIso } from '../../db';
import type { OidcModelsTable, OidcSigningKeysTable } from '../../db/schema';

/** SQL of the OpenID Connect provider: its stored models, its signing keys, and the claims' memberships. */

type OidcModelRow = Selectable<OidcModelsTable>;

/** Writes a model, replacing what was stored under its id. */
export async function upsertModel(
  db: DB,
  row: Pick<OidcModelRow, 'model' | 'id' | 'payload' | 'grantId' | 'userCode' | 'uid' | 'expiresAt'>,
) {
  const { model: _model, id: _id, ...changes } = row;
  await db
    .insertInto('oidcModels')
    .values({ ...row, consumedAt: null })
    .onConflict((oc) => oc.columns(['model', 'id']).doUpdateSet({ ...changes, consumedAt: null }))
    .execute();
}

/** A model by one of the columns the provider looks it up by; expired ones are as good as gone. */
export function findModel(db: DB, model: string, by: 'id' | 'uid' | 'userCode', value: string) {
  return db
    .selectFrom('oidcModels')
    .select(['payload', 'consumedAt'])
    .where('model', '=', model)
    .where(by, '=', value)
    .where((eb) => eb.or([eb('expiresAt', 'is', null), eb('expiresAt', '>', nowIso())]))
    .executeTakeFirst();
}

export async function consumeModel(db: DB, model: string, id: string) {
  await db
    .updateTable('oidcModels')
    .set({ consumedAt: nowIso() })
    .where('model', '=', model)
    .where('id', '=', id)
    .execute();
}

export async function destroyModel(db: DB, model: string, id: string) {
  await db.deleteFrom('oidcModels').where('model', '=', model).where('id', '=', id).execute();
}

/** Every model of a grant (its codes and tokens), whatever their kind: a revoked grant takes them all. */
export async function destroyByGrant(db: DB, grantId: string) {
  await db.deleteFrom('oidcModels').where('grantId', '=', grantId).execute();
}

/** Deletes what expired before `before`; returns how many rows went. */
export async function purgeExpiredModels(db: DB, before: string): Promise<number> {
  const result = await db.deleteFrom('oidcModels').where('expiresAt', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export type OidcSigningKeyRow = Selectable<OidcSigningKeysTable>;

/** The active key first, then the retired ones from the latest. */
export async function listSigningKeys(db: DB): Promise<OidcSigningKeyRow[]> {
  const rows = await db.selectFrom('oidcSigningKeys').selectAll().orderBy('createdAt', 'desc').execute();
  return [...rows.filter((r) => r.retiredAt === null), ...rows.filter((r) => r.retiredAt !== null)];
}

export function activeSigningKey(db: DB) {
  return db.selectFrom('oidcSigningKeys').selectAll().where('retiredAt', 'is', null).executeTakeFirst();
}

/** Retires the key read as the active one; should another node have replaced it meanwhile, nothing changes. */
export async function retireSigningKey(db: DB, keyId: string) {
  await db
    .updateTable('oidcSigningKeys')
    .set({ retiredAt: nowIso() })
    .where('keyId', '=', keyId)
    .where('retiredAt', 'is', null)
    .execute();
}

export async function insertSigningKey(
  db: DB,
  key: Pick<OidcSigningKeyRow, 'keyId' | 'algorithm' | 'publicJwk' | 'privateKeySealed'>,
) {
  await db
    .insertInto('oidcSigningKeys')
    .values({ ...key, createdAt: nowIso(), retiredAt: null })
    .execute();
}

/** The account a subject stands for. */
export function findAccountUser(db: DB, userId: number) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'fullName', 'type', 'status', 'preferredLocale'])
    .where('id', '=', userId)
    .executeTakeFirst();
}

/** The user's enabled memberships with their customers, by customer name, at most `limit`. */
export function membershipsOf(db: DB, userId: number, limit: number) {
  return db
    .selectFrom('memberships')
    .innerJoin('customers', 'customers.id', 'memberships.customerId')
    .select(['customers.id', 'customers.name', 'customers.customerKey', 'memberships.role'])
    .where('memberships.userId', '=', userId)
    .where('memberships.status', '=', 'enabled')
    .orderBy('customers.name')
    .orderBy('customers.id')
    .limit(limit)
    .execute();
}
