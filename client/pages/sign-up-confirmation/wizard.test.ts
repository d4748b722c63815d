import { describe, expect, it, vi } from 'vitest';
import { splitFullName, stepAfterClick, stepReachable } from './wizard';

describe('the confirmation wizard’s navigation (spec 2)', () => {
  it('goes back to any earlier step freely, without checking the current one', () => {
    const validate = vi.fn(() => false);
    expect(stepAfterClick(2, 0, validate)).toBe(0);
    expect(stepAfterClick(2, 1, validate)).toBe(1);
    expect(stepAfterClick(1, 1, validate)).toBe(1);
    expect(validate).not.toHaveBeenCalled();
  });

  it('goes to the next step only when the current one is valid', () => {
    expect(stepAfterClick(0, 1, () => true)).toBe(1);
    expect(stepAfterClick(0, 1, () => false)).toBe(0);
    expect(stepAfterClick(1, 2, () => true)).toBe(2);
    expect(stepAfterClick(1, 2, () => false)).toBe(1);
  });

  it('never skips a step, valid or not, nor goes past the last', () => {
    const validate = vi.fn(() => true);
    expect(stepAfterClick(0, 2, validate)).toBe(0);
    expect(stepAfterClick(2, 3, validate)).toBe(2);
    expect(validate).not.toHaveBeenCalled();
  });

  it('offers the earlier steps and the next one, not further ones', () => {
    expect([0, 1, 2].map((step) => stepReachable(0, step))).toEqual([true, true, false]);
    expect([0, 1, 2].map((step) => stepReachable(1, step))).toEqual([true, true, true]);
    expect([0, 1, 2].map((step) => stepReachable(2, step))).toEqual([true, true, true]);
  });
});

describe('splitFullName (spec 2: the invited full name split at its first space)', () => {
  it.each([
    ['Tess Trial', 'Tess', 'Trial'],
    ['Jean Pierre Martin', 'Jean', 'Pierre Martin'],
    ['  Zoë   de la Fontaine ', 'Zoë', 'de la Fontaine'],
    ['Madonna', 'Madonna', ''],
    ['', '', ''],
  ])('%j gives %j and %j', (fullName, firstName, lastName) => {
    expect(splitFullName(fullName)).toEqual({ firstName, lastName });
  });
});
