import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';
import { explain } from '../test/plans';
import type { DB } from '.';
import { countUpTo, endTrigrams, endTrigramsMatch, ftsPhrase, likePattern, textMatch } from './search';
import { TEST_DIALECT } from '../test/harness';

let t: TestApp;
let db: DB;

beforeAll(async () => {
  t = await createTestApp();
  db = t.app.ctx.db;
});
afterAll(async () => t?.close());

describe('search indexes', () => {
  it('serve a substring filter on user names and e-mails', async () => {
    const plan = await explain(
      db,
      db
        .selectFrom('users')
        .select('id')
        .where(textMatch(db, 'users', 'martin'))
        .compile(),
    );
    if (t.database.dialect === 'postgres') {
      expect(plan).toContain('users_full_name_trgm');
      expect(plan).toContain('users_email_trgm');
    } else {
      expect(plan).toMatch(/users_search VIRTUAL TABLE INDEX/);
    }
  });

  it('serve a substring filter on customer names and keys', async () => {
    const plan = await explain(
      db,
      db
        .selectFrom('customers')
        .select('id')
        .where(textMatch(db, 'customers', 'acme'))
        .compile(),
    );
    if (t.database.dialect === 'postgres') {
      expect(plan).toContain('customers_name_trgm');
      expect(plan).toContain('customers_customer_key_trgm');
    } else {
      expect(plan).toMatch(/customers_search VIRTUAL TABLE INDEX/);
    }
  });

  it('serve a one- or two-character filter as a prefix range', async () => {
    const plan = await explain(
      db,
      db
        .selectFrom('users')
        .select('id')
        .where(textMatch(db, 'users', 'ma'))
        .compile(),
    );
    expect(plan).toContain('users_full_name_prefix');
    expect(plan).toContain(t.database.dialect === 'postgres' ? 'users_email_prefix' : 'users_email_lower_unique');
  });
});

describe('countUpTo', () => {
  it('counts exactly below the cap and stops just past it', async () => {
    const values = (n: number) =>
      Array.from(
        { length: n },
        (_, i) => sql`(${`Count Probe ${i}`}, ${`CNTPRB${String(i).padStart(4, '0')}`}, '', '')`,
      );
    await sql`insert into customers (name, customer_key, created_at, updated_at) values ${sql.join(values(12))}`.execute(
      db,
    );
    const probes = db.selectFrom('customers').where('name', 'like', 'Count Probe %');
    expect(await countUpTo(db, probes, 20)).toEqual({ total: 12, capped: false });
    expect(await countUpTo(db, probes, 12)).toEqual({ total: 12, capped: false });
    expect(await countUpTo(db, probes, 11)).toEqual({ total: 11, capped: true });
  });
});

describe('substring match', () => {
  it('matches the whole filter, not only its first and last trigrams, whatever the case', async () => {
    const names = ['Xyzqua Bravo Wombat', 'Xyzqua Wombat', 'wombat XYZQUA BRAVO', 'Ÿvonne Ölström Qwvz'];
    await sql`insert into customers (name, customer_key, created_at, updated_at) values ${sql.join(
      names.map((name, i) => sql`(${name}, ${`SUBSTR${i}`}, '', '')`),
    )}`.execute(db);
    const matching = async (text: string) =>
      (
        await db
          .selectFrom('customers')
          .select('name')
          .where(textMatch(db, 'customers', text))
          .orderBy('id')
          .execute()
      ).map((row) => row.name);
    // Its first trigram "xyz" and last "bat" are in the second name too, the substring is not.
    expect(await matching('xyzqua bravo wombat')).toEqual(['Xyzqua Bravo Wombat']);
    expect(await matching('XYZQUA bravo')).toEqual(['Xyzqua Bravo Wombat', 'wombat XYZQUA BRAVO']);
    expect(await matching('xyzqua wombat')).toEqual(['Xyzqua Wombat']);
    // Beyond ASCII, the case of any letter.
    expect(await matching('ÿvonne öls')).toEqual(['Ÿvonne Ölström Qwvz']);
  });
});

describe('the first and last trigrams of a long filter (PostgreSQL counts)', () => {
  it('keep exactly the rows the whole filter keeps', async () => {
    const names = ['Qopra International Labs', 'Qopra Intern Regional', 'QOPRA INTERNATIONAL', 'Internal Qopra Nal'];
    await sql`insert into customers (name, customer_key, created_at, updated_at) values ${sql.join(
      names.map((name, i) => sql`(${name}, ${`QOPRAK${i}`}, '', '')`),
    )}`.execute(db);
    const rows = (condition: ReturnType<typeof textMatch>) =>
      db.selectFrom('customers').select('name').where(condition).orderBy('id').execute();
    // "Qopra Intern Regional" and "Internal Qopra Nal" hold "int" and "nal" but not the filter.
    for (const text of ['international', 'qopra internat', 'QOPRAK1', 'intern regional', 'qopra nal']) {
      const ends = endTrigramsMatch(db, 'customers', text);
      if (TEST_DIALECT === 'sqlite') {
        expect(ends).toBeUndefined();
        continue;
      }
      expect(ends, text).toBeDefined();
      expect(await rows(ends!), text).toEqual(await rows(textMatch(db, 'customers', text)));
    }
    expect((await rows(textMatch(db, 'customers', 'international'))).map((r) => r.name)).toEqual([
      'Qopra International Labs',
      'QOPRA INTERNATIONAL',
    ]);
    // An end that is not three letters or digits: the whole filter's trigrams instead.
    expect(endTrigramsMatch(db, 'customers', 'qopra n l')).toBeUndefined();
    expect(endTrigramsMatch(db, 'customers', 'éqopra nal')).toBeUndefined();
  });
});

describe('filter text', () => {
  it('takes the first and last trigrams of an ASCII filter of six characters or more', () => {
    expect(endTrigrams('sophie.lef')).toEqual(['sop', 'lef']);
    expect(endTrigrams('abcdef')).toEqual(['abc', 'def']);
    expect(endTrigrams('abcde')).toBeUndefined();
    expect(endTrigrams('élodie')).toBeUndefined();
  });

  it('escapes like wildcards and the escape itself', () => {
    expect(likePattern('50%_a\\b')).toBe('%50\\%\\_a\\\\b%');
  });

  it('makes one FTS5 phrase of any text, quotes doubled', () => {
    expect(ftsPhrase('a "b" OR c')).toBe('"a ""b"" OR c"');
  });
});
