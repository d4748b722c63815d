import type { DB } from '../../db';
import type { ExpiryNoticeKind } from '../../../common/notifications';

/**
 * Records the notices due for the next `limit` licences whose end date lies in [from, to], soonest
 * first (after `after`, the `last` of the call before), and returns them: a licence already noticed
 * for that end date and kind is left out (the primary key), so running it twice adds nothing. Served
 * by the licences (end_date, id) index: a range, not a scan of every licence.
 */
export type NoticeCursor = { endDate: string; id: number };

export async function recordNotices(
  db: DB,
  input: { kind: ExpiryNoticeKind; from: string; to: string; now: string; limit: number; after: NoticeCursor | null },
): Promise<{ noticed: { licenceId: number; endDate: string }[]; last: NoticeCursor | null }> {
  const { after } = input;
  const due = await db
    .selectFrom('licences')
    .select(['licences.id', 'licences.endDate'])
    .where('licences.endDate', '>=', input.from)
    .where('licences.endDate', '<=', input.to)
    .$if(after !== null, (q) =>
      q.where((eb) =>
        eb.or([
          eb('licences.endDate', '>', after!.endDate),
          eb.and([eb('licences.endDate', '=', after!.endDate), eb('licences.id', '>', after!.id)]),
        ]),
      ),
    )
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
    .limit(input.limit)
    .execute();
  if (due.length === 0) return { noticed: [], last: null };
  const noticed = await db
    .insertInto('licenceExpiryNotices')
    .values(due.map((row) => ({ licenceId: row.id, endDate: row.endDate, kind: input.kind, createdAt: input.now })))
    .onConflict((conflict) => conflict.doNothing())
    .returning(['licenceId', 'endDate'])
    .execute();
  // none after it when the range ran out
  const end = due[due.length - 1];
  return { noticed, last: due.length < input.limit ? null : { endDate: end.endDate, id: end.id } };
}
