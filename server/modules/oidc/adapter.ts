import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { DB } from '../../db';
import { hashToken } from '../auth/hash';
import * as repo from './repo';

/**
 * The provider's storage in the portal's database (table oidc_models, migration 027), on SQLite and
 * PostgreSQL alike: what a node writes, every other node and the next start read. The provider's
 * in-memory default would lose sessions and codes at each restart and cannot be shared.
 *
 * No working token rests there (decision 083): the provider's ids are its token values (codes,
 * access and refresh tokens, the session cookie, the interaction uid), so a row is kept under the
 * SHA-256 of its id, as the portal keeps its own tokens, and its payload without `jti` (the id
 * again), which `find` puts back from the id it was given. An interaction's copy of the session
 * cookie goes too: the provider never reads it.
 */
export function kyselyAdapter(db: DB): new (model: string) => Adapter {
  return class KyselyAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      await repo.upsertModel(db, {
        model: this.model,
        id: hashToken(id),
        payload: JSON.stringify(atRest(payload)),
        grantId: payload.grantId ?? null,
        userCode: payload.userCode ? hashToken(payload.userCode) : null,
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

    // A session's uid is the `sid` its ID tokens carry to the clients: no credential, kept as it is.
    findByUid(uid: string) {
      return this.read('uid', uid);
    }

    async consume(id: string): Promise<void> {
      await repo.consumeModel(db, this.model, hashToken(id));
    }

    async destroy(id: string): Promise<void> {
      await repo.destroyModel(db, this.model, hashToken(id));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await repo.destroyByGrant(db, grantId);
    }

    private async read(by: 'id' | 'uid' | 'userCode', value: string): Promise<AdapterPayload | undefined> {
      // A value a client made up (a client_id, a token) can hold a NUL, which no stored id does and
      // PostgreSQL refuses in text: nothing is stored under it.
      if (value.includes('\u0000')) return undefined;
      const row = await repo.findModel(db, this.model, by, by === 'uid' ? value : hashToken(value));
      if (!row) return undefined;
      const stored = JSON.parse(row.payload) as AdapterPayload;
      // Found by another column, the model is only read (a session still alive, a device code's
      // state): its id, which the row no longer holds, is not needed.
      const payload = by === 'id' ? { ...stored, jti: value } : stored;
      // The provider refuses a consumed code or token by this field (a replayed code revokes its grant).
      return row.consumedAt ? { ...payload, consumed: Math.floor(Date.parse(row.consumedAt) / 1000) } : payload;
    }
  };
}

/** The payload as stored: without the values that are the model's id or another model's. */
function atRest(payload: AdapterPayload): AdapterPayload {
  const { jti: _jti, ...rest } = payload;
  if (rest.session && typeof rest.session === 'object' && 'cookie' in rest.session) {
    const { cookie: _cookie, ...session } = rest.session as Record<string, unknown>;
    return { ...rest, session } as AdapterPayload;
  }
  return rest;
}

/** Deletes the provider's expired state; a scheduled job runs it (server/jobs). */
export function purgeExpiredOidcState(db: DB, now = Date.now()): Promise<number> {
  return repo.purgeExpiredModels(db, new Date(now).toISOString());
}
