import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Licence days in a zone with daylight-saving changes (common/licence-status.ts). A TZ cannot be
 * changed reliably inside a running worker: a child node process runs the functions under
 * TZ=Europe/Paris. Only localToday may follow the zone; the server's day and the status never do.
 */
describe('licence days under TZ=Europe/Paris', () => {
  it("takes the viewer's today in their zone, also across a daylight-saving change (Europe/Paris)", () => {
    // Paris moves to summer time at 01:00 UTC on 2026-03-29 and back at 01:00 UTC on 2026-10-25.
    const instants = [
      '2026-03-28T22:59:59Z', // 23:59:59 on the 28th (UTC+1)
      '2026-03-28T23:00:00Z', // midnight, the 29th
      '2026-03-29T01:30:00Z', // 03:30 summer time, just after the change
      '2026-03-29T21:59:59Z', // 23:59:59 summer time (UTC+2)
      '2026-03-29T22:00:00Z', // midnight, the 30th
      '2026-10-24T21:59:59Z', // 23:59:59 on the 24th (UTC+2)
      '2026-10-24T22:00:00Z', // midnight, the 25th
      '2026-10-25T22:59:59Z', // 23:59:59 on the 25th, winter time (UTC+1)
      '2026-10-25T23:00:00Z', // midnight, the 26th
    ];
    const module = path.resolve(__dirname, '../common/licence-status.ts');
    const script = `
      const { localToday, utcToday, licenceStatus } = await import(${JSON.stringify(module)});
      const instants = ${JSON.stringify(instants)};
      console.log(JSON.stringify({
        zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
        local: instants.map((i) => localToday(new Date(i))),
        utc: instants.map((i) => utcToday(new Date(i))),
        status: licenceStatus('2026-03-29', '2026-03-29'),
      }));`;
    const output = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      env: { ...process.env, TZ: 'Europe/Paris' },
      encoding: 'utf8',
    });
    const result = JSON.parse(output.trim().split('\n').pop()!);
    expect(result.zone).toBe('Europe/Paris');
    expect(result.local).toEqual([
      '2026-03-28',
      '2026-03-29',
      '2026-03-29',
      '2026-03-29',
      '2026-03-30',
      '2026-10-24',
      '2026-10-25',
      '2026-10-25',
      '2026-10-26',
    ]);
    // the server's day does not follow the zone
    expect(result.utc).toEqual([
      '2026-03-28',
      '2026-03-28',
      '2026-03-29',
      '2026-03-29',
      '2026-03-29',
      '2026-10-24',
      '2026-10-24',
      '2026-10-25',
      '2026-10-25',
    ]);
    expect(result.status).toBe('warning');
  });
});
