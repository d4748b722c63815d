import type { DB } from './db';
import { ARTIFACT_FILES } from './modules/artifacts/stored-files';

/**
 * A kind of file the portal keeps in its file storage (`ctx.storage`: a local folder or S3), as the
 * module that writes it declares it: the shape of its keys, and which of them its rows still refer to.
 */
export interface StoredFileKind {
  /** named in the sweep's log line */
  name: string;
  /** every key of the kind fits it, and no key of another kind does (`stored-file-kinds.test.ts`) */
  keyPattern: RegExp;
  /** a key of the kind, which the test checks against every kind's pattern */
  example: string;
  /** Of `keys` (each fitting `keyPattern`), those still in use: a file of any other is left over. */
  inUse(db: DB, keys: string[]): Promise<Set<string>>;
}

/**
 * Every kind of file the portal stores, each declared by its owner. The storage sweep
 * (`server/modules/artifacts/sweep.ts`) removes a file only when its key fits a kind declared here
 * and that kind's owner no longer refers to it: a key that fits none (an operator's file, a kind not
 * declared yet) is never touched. A module that stores a new kind of file declares it here, with
 * keys of a shape that no other kind's pattern fits.
 */
export const STORED_FILE_KINDS: readonly StoredFileKind[] = [ARTIFACT_FILES];

/** The kinds `key` fits: none for a key that is not the portal's. */
export const kindsOfKey = (key: string, kinds: readonly StoredFileKind[] = STORED_FILE_KINDS): StoredFileKind[] =>
  kinds.filter((kind) => kind.keyPattern.test(key));
