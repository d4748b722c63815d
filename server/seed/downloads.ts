import type { Transaction } from 'kysely';
import type { Platform } from '../../common/domain';
import { recordDownload } from '../modules/downloads/repo';
import type { Database } from '../db/schema';

/**
 * [customer, product, platforms, mean downloads per day]: a few months of downloads for the demo's
 * download analytics. Acme's toolkit is left alone (its first download is a demo of its own), and
 * Acme's server downloads stop before the one the demo log shows, which stays its latest.
 */
const DEMO_DOWNLOADERS: [string, string, Platform[], number][] = [
  ['Acme Analytics', 'graph-server', ['linux', 'docker'], 0.6],
  ['Globex Logistics', 'graph-server', ['linux', 'windows', 'docker'], 1.2],
  ['Globex Logistics', 'graph-studio', ['windows', 'osx'], 0.5],
  ['Northwind Labs', 'graph-studio', ['osx'], 0.3],
  ['Northwind Labs', 'graph-connector', ['npm'], 0.4],
  ['Initech Security', 'graph-server', ['linux'], 0.2],
];

const SEED_DAYS = 150;

/**
 * Downloads recorded through `recordDownload`, as the download routes do, so the aggregates are
 * the application's. A fixed pseudo-random sequence keeps the demo the same at every start; each
 * day downloads one of the versions released by then, mostly the newest.
 */
export async function seedDemoDownloads(
  trx: Transaction<Database>,
  {
    licenceIds,
    versions,
    today,
  }: {
    licenceIds: Map<string, number>;
    /** [product, semVer, id, released this many days ago (null: unpublished)] */
    versions: [string, string, number, number | null][];
    today: Date;
  },
) {
  let state = 42;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  for (const [customer, productKey, platforms, mean] of DEMO_DOWNLOADERS) {
    const licenceId = licenceIds.get(`${customer}/${productKey}`);
    if (licenceId === undefined) continue;
    for (let daysAgo = SEED_DAYS; daysAgo >= 3; daysAgo--) {
      const released = versions
        .filter(([p, semVer, , ago]) => p === productKey && ago !== null && ago >= daysAgo && !semVer.includes('-'))
        .sort((a, b) => (a[3] ?? 0) - (b[3] ?? 0));
      if (released.length === 0) continue;
      const count = Math.floor(random() * mean * 2 + random() * 0.5);
      for (let i = 0; i < count; i++) {
        const version = random() < 0.8 || released.length === 1 ? released[0] : released[1];
        const at = new Date(today.getTime() - daysAgo * 86_400_000 + Math.floor(random() * 80_000_000));
        await recordDownload(trx, {
          licenceId,
          versionId: version[2],
          artifactId: null,
          userId: null,
          ip: null,
          platform: platforms[Math.floor(random() * platforms.length)],
          createdAt: at.toISOString(),
        });
      }
    }
  }
}
