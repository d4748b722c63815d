import { describe, expect, it } from 'vitest';
import { versionOrder } from '../../modules/catalogue/semver-order';
import { frozenOrderOf } from './010_version_order';

// The migration carries its own copy of the order (decision 059); this says the copy and the
// catalogue's rules agreed when it was frozen. Should the catalogue's change, this test fails, and
// the change needs a migration of its own that recomputes the columns, not an edit of this one.
describe('the order migration 010 wrote', () => {
  it.each([
    '0.0.0',
    '1.2.3',
    '10.20.30',
    '1.0.0-alpha',
    '1.0.0-alpha.1',
    '1.0.0-alpha-x',
    '1.0.0-0.3.7',
    '1.0.0-x.7.z.92',
    '1.0.0-rc.10',
    '1.0.0+build.5',
    '1.0.0-beta+exp.sha.5114f85',
    '9007199254740991.0.0',
    '1.0.0-99999999999999999999',
  ])('is the catalogue order for %s', (semVer) => {
    expect(frozenOrderOf(semVer)).toEqual(versionOrder(semVer));
  });

  it.each(['1.0', '01.0.0', '1.0.0-01', '9007199254740992.0.0', 'v1.0.0'])('refuses %s', (semVer) => {
    expect(versionOrder(semVer)).toBeNull();
    expect(() => frozenOrderOf(semVer)).toThrow(/Not a semantic version/);
  });
});
