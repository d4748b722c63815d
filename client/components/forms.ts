import type { Translate } from '../i18n/translate';
import { ERROR_CODES } from '../../common/api/errors';
import { ApiError, type ErrorDetail, errorText } from '../api/client';

const MESSAGE_KEY = /^[a-z_]+(\.[a-z_]+)+$/i;

/** Server messages may be rule keys (e.g. 'password.error.too_short'); translate those, keep the rest. */
function translateMessage(t: Translate, message: string): string {
  return MESSAGE_KEY.test(message) ? t(message, { defaultValue: message }) : message;
}

/**
 * A field's message in the reader's language: its rule key's text, with the values the server sent
 * for it (`{{max}}`), else a generic one (never raw English).
 */
function fieldMessage(t: Translate, message: string, values?: ErrorDetail['values']): string {
  const known = MESSAGE_KEY.test(message) ? t(message, { ...values, defaultValue: '' }) : '';
  return known || t('errors.invalidField');
}

/** A detail's path as the form names the field: the request part the server may prefix is dropped. */
const fieldPath = (path: string) => path.replace(/^(body|query|params)\./, '');

/**
 * Field errors of a failed call, translated: each of the answer's `details` (validation problems, and
 * the conflicts the server ties to a field, such as an e-mail already taken) on the field it names.
 * Nothing here knows which error belongs to which field: the server says so.
 */
export function fieldErrorsOf(error: unknown, t: Translate): Record<string, string> {
  const result: Record<string, string> = {};
  if (!(error instanceof ApiError)) return result;
  for (const detail of error.details) {
    const field = fieldPath(detail.path);
    if (field && !result[field]) result[field] = fieldMessage(t, detail.message, detail.values);
  }
  return result;
}

/** Whether a failed call names `field` in its details (e.g. a captcha the next attempt needs). */
export function namesField(error: unknown, field: string): boolean {
  return error instanceof ApiError && error.details.some((detail) => fieldPath(detail.path) === field);
}

/** The problems a schema found (message keys, per field), in the reader's language. */
export function translateFieldErrors<E extends Record<string, unknown>>(
  errors: E,
  t: Translate,
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [field, message] of Object.entries(errors)) {
    // A schema's messages are strings (keys); anything else has no text to show but its generic one.
    if (message) result[field] = fieldMessage(t, typeof message === 'string' ? message : '');
  }
  return result;
}

/**
 * Spec 8: the API's text, in the reader's language: a validation error names its first problem; errors
 * with a known code have their own translation; otherwise the API's message (or a rule key it carries),
 * else the generic text.
 */
export function apiErrorText(error: unknown, t: Translate): string {
  if (error instanceof ApiError && error.code) {
    const firstDetail = error.details[0];
    if (error.code === ERROR_CODES.validation && firstDetail && MESSAGE_KEY.test(firstDetail.message)) {
      const rule = t(firstDetail.message, { ...firstDetail.values, defaultValue: '' });
      if (rule) return rule;
    }
    const known = t(`apiErrors.${error.code}`, { defaultValue: '' });
    if (known) return known;
  }
  return translateMessage(t, errorText(error, t('errors.generic')));
}
