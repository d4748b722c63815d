/**
 * CSV of a table as the page shows it (docs/decisions/039): RFC 4180 quoting, and cells that a
 * spreadsheet would run as a formula (starting with = + - @, a tab or a carriage return) prefixed
 * with an apostrophe. Numbers are written as numbers: a negative count cannot occur.
 */
export type CsvCell = string | number | null;

export function csvCell(value: CsvCell): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function toCsv(header: string[], rows: CsvCell[][]): string {
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/** Saves the CSV under the file name through a link, as the browser downloads any file. */
export function saveCsv(fileName: string, csv: string) {
  // The byte-order mark makes spreadsheets read the file as UTF-8 (accents in customer names).
  const url = URL.createObjectURL(new Blob(['\uFEFF', csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
