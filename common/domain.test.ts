import { describe, expect, it } from 'vitest';
import { VISIBLE_VERSION_TYPES } from './domain';

describe('VISIBLE_VERSION_TYPES', () => {
  it('gates version types by access level as decisions.md says', () => {
    expect([...VISIBLE_VERSION_TYPES.stable].sort()).toEqual(['eol', 'maintenance', 'stable']);
    expect([...VISIBLE_VERSION_TYPES.beta].sort()).toEqual(['beta', 'eol', 'maintenance', 'stable']);
    expect([...VISIBLE_VERSION_TYPES.alpha].sort()).toEqual(['alpha', 'beta', 'eol', 'maintenance', 'stable']);
  });
});
