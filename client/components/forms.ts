import type { TFunction } from 'i18next';
import { ERROR_CODES } from '../../common/api/errors';
import { ApiError, errorText } from '../api/client';

const MESSAGE_KEY = /^[a-z_]+(\.[a-z_]+)+$/i;

/** Server messages may be rule keys (e.g. 'password.error.too_short'); translate those, keep the rest. */
export function translateMessage(t: TFunction, message: string): string {
  return MESSAGE_KEY.test(message) ? t(message, { defaultValue: message }) : message;
}

/** A field's message in the reader's language: its rule key's text, else a generic one (never raw English). */
function fieldMessage(t: TFunction, message: string): string {
  const known = MESSAGE_KEY.test(message) ? t(message, { defaultValue: '' }) : '';
  return known || t('errors.invalidField');
}

/**
 * Field errors of a failed call, translated: the validation details of a 400 answer, per field, and the
 * conflicts that belong to one field (an e-mail already taken, a status one may not change).
 */
export function fieldErrorsOf(error: unknown, t: TFunction): Record<string, string> {
  const result: Record<string, string> = {};
  if (!(error instanceof ApiError)) return result;
  if (error.code === ERROR_CODES.emailTaken) result.email = t(`apiErrors.${error.code}`);
  if (error.code === ERROR_CODES.cannotDisableSelf) result.status = t(`apiErrors.${error.code}`);
  for (const detail of error.details) {
    const field = detail.path.split('.').pop() ?? detail.path;
    if (field && !result[field]) result[field] = fieldMessage(t, detail.message);
  }
  return result;
}

/**
 * Spec 8: the API's text, in the reader's language: a validation error names its first problem; errors
 * with a known code have their own translation; otherwise the API's message (or a rule key it carries),
 * else the generic text.
 */
export function apiErrorText(error: unknown, t: TFunction): string {
  if (error instanceof ApiError && error.code) {
    const firstDetail = error.details[0]?.message;
    if (error.code === ERROR_CODES.validation && firstDetail && MESSAGE_KEY.test(firstDetail)) {
      const rule = t(firstDetail, { defaultValue: '' });
      if (rule) return rule;
    }
    const known = t(`apiErrors.${error.code}`, { defaultValue: '' });
    if (known) return known;
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
