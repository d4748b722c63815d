import type { TFunction } from 'i18next';
import { ApiError, errorText } from '../api/client';

/** Server messages may be rule keys (e.g. 'password.error.too_short'); translate those, keep the rest. */
export function translateMessage(t: TFunction, message: string): string {
  return /^[a-z_]+(\.[a-z_]+)+$/i.test(message) ? t(message, { defaultValue: message }) : message;
}

/** Validation details of a 400 answer, per field, translated. */
export function fieldErrorsOf(error: unknown, t: TFunction): Record<string, string> {
  const result: Record<string, string> = {};
  if (!(error instanceof ApiError)) return result;
  for (const detail of error.details) {
    const field = detail.path.split('.').pop() ?? detail.path;
    if (field && !result[field]) result[field] = translateMessage(t, detail.message);
  }
  return result;
}

/**
 * Spec 8: the API's text, in the reader's language: errors with a known code have their own
 * translation; otherwise the API's message (or a rule key it carries), else the generic text.
 */
export function apiErrorText(error: unknown, t: TFunction): string {
  if (error instanceof ApiError && error.code) {
    const known = t(`apiErrors.${error.code}`, { defaultValue: '' });
    if (known) return known;
    const firstDetail = error.details[0]?.message;
    if (error.code === 'validation_error' && firstDetail) return translateMessage(t, firstDetail);
  }
  return translateMessage(t, errorText(error, t('errors.generic')));
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value.trim());
}

/** Client-side e-mail check with the same message key the server uses. */
export function emailError(value: string, t: TFunction): string | null {
  if (!value.trim()) return t('errors.required');
  return isEmail(value) ? null : t('email.invalid');
}
