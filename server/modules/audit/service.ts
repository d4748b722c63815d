import { Readable, pipeline } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { LogEntry, LogExportQuery, LogList, LogQuery } from '../../../common/api/logs';
import type { AuditAction } from '../../../common/audit';
import type { Actor } from '../../actor';
import type { AppContext } from '../../context';
import type { CustomerAccess } from '../../policy';
import { type AuditCursor, type AuditRow, auditEntriesAfter, listAuditEntries } from './repo';

/** Rows read per query while an export streams: the log is never held whole in memory. */
export const EXPORT_BATCH = 500;

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

function parseData(raw: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** An entry as spec section 3 names its fields; what the action wrote stays in `data`. */
function toLogEntry(row: AuditRow): LogEntry {
  const data = parseData(row.data);
  return {
    id: row.id,
    actorEmail: row.actorEmail,
    actorKind: row.actorKind,
    actorName: row.actorKind === 'user' || row.actorKind === 'anonymous' ? null : row.actorName,
    action: row.action as AuditAction,
    date: row.createdAt,
    anonymousDownload: data.anonymousDownload === true,
    productName: text(data.productName),
    productVersion: text(data.productVersion),
    productPlatform: text(data.productPlatform),
    invitationFrom: text(data.invitationFrom),
    data,
  };
}

/** A customer's recent actions, newest first (spec section 2, "Recent actions log"). */
export async function listLogs(
  ctx: AppContext,
  _actor: Actor,
  input: { customerAccess: CustomerAccess; query: LogQuery },
): Promise<LogList> {
  const { pageOffset, pageLength, action } = input.query;
  const page = await listAuditEntries(ctx.db, input.customerAccess.customer.id, {
    offset: pageOffset,
    length: pageLength,
    action,
  });
  return { data: page.rows.map(toLogEntry), offset: pageOffset, total: page.total, totalCapped: page.capped };
}

/** Every entry of the filter, newest first, read a batch at a time by keyset. */
async function* logEntries(
  ctx: AppContext,
  customerId: number,
  action: AuditAction | undefined,
  batch = EXPORT_BATCH,
): AsyncGenerator<LogEntry> {
  let cursor: AuditCursor | null = null;
  for (;;) {
    const rows = await auditEntriesAfter(ctx.db, customerId, { action, cursor, limit: batch });
    for (const row of rows) yield toLogEntry(row);
    if (rows.length < batch) return;
    const last = rows[rows.length - 1];
    cursor = { createdAt: last.createdAt, id: last.id };
  }
}

const CSV_COLUMNS = [
  'date',
  'actorEmail',
  'actorKind',
  'actorName',
  'action',
  'productName',
  'productVersion',
  'productPlatform',
  'anonymousDownload',
  'invitationFrom',
  'details',
] as const;

/**
 * The CSV of a customer's entries, streamed (decision 029): csv-stringify quotes, starts with a
 * UTF-8 byte order mark for spreadsheet programs, and puts an apostrophe before a cell a spreadsheet
 * would take for a formula (= + - @ tab CR).
 */
export function exportLogs(
  ctx: AppContext,
  _actor: Actor,
  input: { customerAccess: CustomerAccess; query: LogExportQuery; today?: Date },
): { fileName: string; body: NodeJS.ReadableStream } {
  const { customer } = input.customerAccess;
  const day = (input.today ?? new Date()).toISOString().slice(0, 10);
  const fileName = `recent-actions-${customer.customerKey}-${day}.csv`.replace(/[^A-Za-z0-9._-]/g, '_');
  const records = Readable.from(
    (async function* () {
      for await (const entry of logEntries(ctx, customer.id, input.query.action)) {
        const { anonymousDownload, data } = entry;
        const details = { ...data };
        for (const key of ['anonymousDownload', 'productName', 'productVersion', 'productPlatform', 'invitationFrom'])
          delete details[key];
        yield {
          date: entry.date,
          actorEmail: entry.actorEmail ?? '',
          // who acted when no user did: the payment provider, the provisioner, a job, an API token
          actorKind: entry.actorKind,
          actorName: entry.actorName ?? '',
          action: entry.action,
          productName: entry.productName ?? '',
          productVersion: entry.productVersion ?? '',
          productPlatform: entry.productPlatform ?? '',
          anonymousDownload: entry.action === 'downloadArtifact' ? String(anonymousDownload) : '',
          invitationFrom: entry.invitationFrom ?? '',
          details: Object.keys(details).length ? JSON.stringify(details) : '',
        };
      }
    })(),
  );
  const csv = stringify({
    header: true,
    columns: [...CSV_COLUMNS],
    bom: true,
    escape_formulas: true,
    record_delimiter: 'windows',
  });
  pipeline(records, csv, (error) => {
    if (error) ctx.log.error({ err: error, customerId: customer.id }, 'recent actions export stopped');
  });
  return { fileName, body: csv };
}
