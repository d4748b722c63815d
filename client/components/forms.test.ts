import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../common/api/errors';
import { ApiError, NETWORK_ERROR_STATUS } from '../api/client';
import { createI18n } from '../i18n';
import en from '../i18n/en.json';
import fr from '../i18n/fr.json';
import { apiErrorText, fieldErrorsOf, namesField } from './forms';

describe('apiErrorText', () => {
  const tFr = createI18n('fr').t;
  const tEn = createI18n('en').t;

  it('shows an error with a known code in the reader’s language', () => {
    const error = new ApiError(401, 'bad_credentials', 'Invalid e-mail or password');
    expect(apiErrorText(error, tFr)).toBe('Adresse e-mail ou mot de passe incorrect.');
    expect(apiErrorText(error, tEn)).toBe('Invalid e-mail or password.');
  });

  it('translates the first rule key of a validation error', () => {
    const error = new ApiError(400, 'validation_error', 'password: The password must be at least 15 characters long.', [
      { path: 'password', message: 'password.error.too_short' },
    ]);
    expect(apiErrorText(error, tEn)).toBe(en.password.error.too_short);
    expect(apiErrorText(error, tFr)).toBe(fr.password.error.too_short);
  });

  it('fills in the values the rule key’s text names', () => {
    const error = new ApiError(400, 'validation_error', 'name: This text must be at most 200 characters long.', [
      { path: 'name', message: 'errors.tooLong', values: { max: 200 } },
    ]);
    expect(apiErrorText(error, tEn)).toBe('This text must be at most 200 characters long.');
    expect(apiErrorText(error, tFr)).toBe('Ce texte doit compter au plus 200 caractères.');
  });

  it('keeps the API’s own message for codes without a translation, and falls back to the generic text', () => {
    expect(apiErrorText(new ApiError(409, 'conflict', 'Version 1.2.0 already exists'), tEn)).toBe(
      'Version 1.2.0 already exists',
    );
    expect(apiErrorText(new Error(''), tFr)).toBe(fr.errors.generic);
  });

  it('has a translation in both languages for every error code but the field-level and generic ones', () => {
    // crm_error carries the CRM's own words, which the spec's message quotes ("could not be synced
    // with SalesForce: {error}"): like a conflict's, its text is the API's message
    const untranslated = new Set<string>(['validation_error', 'conflict', ERROR_CODES.crmError]);
    const codes = Object.values(ERROR_CODES).filter((code) => !untranslated.has(code));
    for (const code of codes) {
      expect(en.apiErrors, code).toHaveProperty(code);
      expect(fr.apiErrors, code).toHaveProperty(code);
    }
  });

  it('never shows the browser’s English text for an unreachable server', () => {
    const error = new ApiError(NETWORK_ERROR_STATUS, 'network_error', 'Failed to fetch');
    expect(apiErrorText(error, tFr)).toBe(fr.apiErrors.network_error);
    expect(apiErrorText(new ApiError(502, 'http_error', 'Bad Gateway'), tFr)).toBe(fr.apiErrors.http_error);
  });

  it('gives a validation error without a rule key a translated summary, not the raw message', () => {
    const error = new ApiError(400, 'validation_error', 'body/fullname: Too small', [
      { path: 'fullname', message: 'Too small: expected string to have >=1 characters' },
    ]);
    expect(apiErrorText(error, tFr)).toBe(fr.apiErrors.validation_error);
  });
});

describe('fieldErrorsOf', () => {
  const tFr = createI18n('fr').t;

  it('translates rule keys per field and replaces untranslatable messages', () => {
    const error = new ApiError(400, 'validation_error', 'invalid', [
      { path: 'body.email', message: 'email.invalid' },
      { path: 'fullname', message: 'Too small: expected string to have >=1 characters' },
    ]);
    expect(fieldErrorsOf(error, tFr)).toEqual({ email: fr.email.invalid, fullname: fr.errors.invalidField });
  });

  it('fills in the values a rule key’s text names', () => {
    const error = new ApiError(400, 'validation_error', 'invalid', [
      { path: 'name', message: 'errors.tooLong', values: { max: 200 } },
      { path: 'accessLevel', message: 'errors.invalidOption', values: { allowed: 'alpha, beta, stable' } },
    ]);
    expect(fieldErrorsOf(error, tFr)).toEqual({
      name: 'Ce texte doit compter au plus 200 caractères.',
      accessLevel: 'Cette valeur ne fait pas partie de celles permises : alpha, beta, stable.',
    });
  });

  it('puts a conflict on the field the server names, knowing no error code', () => {
    const taken = new ApiError(409, 'email_taken', 'taken', [{ path: 'email', message: 'apiErrors.email_taken' }]);
    expect(fieldErrorsOf(taken, tFr)).toEqual({ email: fr.apiErrors.email_taken });
    const self = new ApiError(403, 'cannot_disable_self', 'no', [
      { path: 'status', message: 'apiErrors.cannot_disable_self' },
    ]);
    expect(fieldErrorsOf(self, tFr)).toEqual({ status: fr.apiErrors.cannot_disable_self });
    // Without details, a code alone belongs to no field.
    expect(fieldErrorsOf(new ApiError(409, 'email_taken', 'taken'), tFr)).toEqual({});
  });
});

describe('namesField', () => {
  it('tells whether a failed call names a field in its details', () => {
    const error = new ApiError(401, 'bad_credentials', 'no', [
      { path: 'recaptchaResponse', message: 'apiErrors.captcha_required' },
    ]);
    expect(namesField(error, 'recaptchaResponse')).toBe(true);
    expect(namesField(error, 'email')).toBe(false);
    expect(namesField(new Error('x'), 'recaptchaResponse')).toBe(false);
  });
});
