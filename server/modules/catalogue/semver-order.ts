import semver from 'semver';
import { SEMVER } from '../../../common/api/catalogue';

/**
 * The columns that order versions by semantic version in SQL (docs/decisions/037), the same on SQLite
 * and PostgreSQL: major, minor and patch as integers, then a text key that compares byte by byte as
 * semver 2.0 rule 11 compares what follows them:
 *
 * - a release gets "2", above every pre-release key (which starts with "0" or "1");
 * - a numeric identifier is "0", its length in three digits, then its digits: shorter numbers are
 *   smaller (no leading zeros) and numeric identifiers sort below alphanumeric ones;
 * - an alphanumeric identifier is "1" then itself (ASCII order, as the rule says);
 * - identifiers are joined by a space, below every character an identifier may hold, so that
 *   "alpha" < "alpha.1" < "alpha-x" and more identifiers sort after fewer.
 *
 * Build metadata takes no part. PostgreSQL stores the key with the "C" collation so it compares bytes.
 */
export interface VersionOrder {
  major: number;
  minor: number;
  patch: number;
  preReleaseKey: string;
}

const RELEASE_KEY = '2';

/** The order columns of a valid semantic version; null when it is not one (or a part exceeds 2^53). */
export function versionOrder(semVer: string): VersionOrder | null {
  if (!SEMVER.test(semVer)) return null;
  const parsed = semver.parse(semVer, { loose: false });
  if (!parsed) return null;
  const preReleaseKey =
    parsed.prerelease.length === 0
      ? RELEASE_KEY
      : parsed.prerelease
          .map((part) =>
            typeof part === 'number' || /^\d+$/.test(part)
              ? `0${String(part).length.toString().padStart(3, '0')}${part}`
              : `1${part}`,
          )
          .join(' ');
  return { major: parsed.major, minor: parsed.minor, patch: parsed.patch, preReleaseKey };
}

/** The order columns of a version about to be stored; its semVer was validated before. */
export function orderOf(semVer: string): VersionOrder {
  const order = versionOrder(semVer);
  if (!order) throw new Error(`Not a semantic version: ${semVer}`);
  return order;
}
