import type { DB } from '../../db';
import type { ExpiryNoticeKind } from '../../../common/notifications';

/**
 * Records the notices due for licences whose end date lies in [from, to] and returns them: a licence
 * already noticed for that end date and kind is left out (the primary key), so running it twice adds
 * nothing. Served by the licences (end_date, id) index: a range, not a scan of every licence.
 */
export async function recordNotices(
  db: DB,
  input: { kind: ExpiryNoticeKind; from: string; to: string; now: string },
): Promise<{ licenceId: number; endDate: string }[]> {
  const due = await db
    .selectFrom('licences')
    .select(['licences.id', 'licences.endDate'])
    .where('licences.endDate', '>=', input.from)
    .where('licences.endDate', '<=', input.to)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('licenceExpiryNotices')
            .select('licenceExpiryNotices.licenceId')
            .whereRef('licenceExpiryNotices.licenceId', '=', 'licences.id')
            .whereRef('licenceExpiryNotices.endDate', '=', 'licences.endDate')
            .where('licenceExpiryNotices.kind', '=', input.kind),
        ),
      ),
    )
    .orderBy('licences.endDate')
    .orderBy('licences.id')
    .execute();
  const noticed: { licenceId: number; endDate: string }[] = [];
  for (let i = 0; i < due.length; i += 500) {
    const rows = due.slice(i, i + 500).map((row) => ({
      licenceId: row.id,
      endDate: row.endDate,
      kind: input.kind,
      createdAt: input.now,
    }));
    const inserted = await db
      .insertInto('licenceExpiryNotices')
      .values(rows)
      .onConflict((conflict) => conflict.doNothing())
      .returning(['licenceId', 'endDate'])
      .execute();
    noticed.push(...inserted);
  }
  return noticed;
}
