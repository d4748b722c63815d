import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { DB } from '../../db';
import * as repo from './repo';

/**
 * The provider's storage in the portal's database (table oidc_models, migration 027), on SQLite and
 * PostgreSQL alike: what a node writes, every other node and the next start read. The provider's
 * in-memory default would lose sessions and codes at each restart and cannot be shared.
 */
export function kyselyAdapter(db: DB): new (model: string) => Adapter {
  return class KyselyAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      await repo.upsertModel(db, {
        model: this.model,
        id,
        payload: JSON.stringify(payload),
        grantId: payload.grantId ?? null,
        userCode: payload.userCode ?? null,
        uid: payload.uid ?? null,
        expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000).toISOString() : null,
      });
    }

    find(id: string) {
      return this.read('id', id);
    }

    findByUserCode(userCode: string) {
      return this.read('userCode', userCode);
    }

    findByUid(uid: string) {
      return this.read('uid', uid);
    }

    async consume(id: string): Promise<void> {
      await repo.consumeModel(db, this.model, id);
    }

    async destroy(id: string): Promise<void> {
      await repo.destroyModel(db, this.model, id);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await repo.destroyByGrant(db, grantId);
    }

    private async read(by: 'id' | 'uid' | 'userCode', value: string): Promise<AdapterPayload | undefined> {
      // A value a client made up (a client_id, a token) can hold a NUL, which no stored id does and
      // PostgreSQL refuses in text: nothing is stored under it.
      if (value.includes('\u0000')) return undefined;
      const row = await repo.findModel(db, this.model, by, value);
      if (!row) return undefined;
      const payload = JSON.parse(row.payload) as AdapterPayload;
      // The provider refuses a consumed code or token by this field (a replayed code revokes its grant).
      return row.consumedAt ? { ...payload, consumed: Math.floor(Date.parse(row.consumedAt) / 1000) } : payload;
    }
  };
}

/** Deletes the provider's expired state; a scheduled job runs it (server/jobs). */
export function purgeExpiredOidcState(db: DB, now = Date.now()): Promise<number> {
  return repo.purgeExpiredModels(db, new Date(now).toISOString());
}
