/** The rules of the sign-up confirmation's wizard (spec 2, "Self-service confirmation"). */

export const WIZARD_STEPS = ['useCase', 'graphDb', 'password'] as const;

/**
 * Where a click on step `requested` leads from step `current` (indexes from 0): an earlier step (or
 * the current one) at once; the next one only when the current one is valid (`validateCurrent` is
 * asked then, and may show its errors); any further one nowhere, a step cannot be skipped.
 */
export function stepAfterClick(current: number, requested: number, validateCurrent: () => boolean): number {
  if (requested <= current) return Math.max(requested, 0);
  if (requested === current + 1 && requested < WIZARD_STEPS.length) return validateCurrent() ? requested : current;
  return current;
}

/** Whether the step's button can be clicked from `current`: every earlier step, and the next one. */
export const stepReachable = (current: number, step: number) => step <= current + 1;

/**
 * Spec 2: the password step's first and last names, prefilled by splitting the invited full name at
 * its first space ("Jean Pierre Martin": "Jean", "Pierre Martin"); a name without a space is all first
 * name.
 */
export function splitFullName(fullName: string): { firstName: string; lastName: string } {
  const trimmed = fullName.trim();
  const space = trimmed.indexOf(' ');
  if (space === -1) return { firstName: trimmed, lastName: '' };
  return { firstName: trimmed.slice(0, space), lastName: trimmed.slice(space + 1).trim() };
}
