import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../common/api/errors';
import { ApiError } from '../api/client';
import { createI18n } from '../i18n';
import en from '../i18n/en.json';
import fr from '../i18n/fr.json';
import { apiErrorText } from './forms';

describe('apiErrorText', () => {
  const tFr = createI18n('fr').t;
  const tEn = createI18n('en').t;

  it('shows an error with a known code in the reader’s language', () => {
    const error = new ApiError(401, 'bad_credentials', 'Invalid e-mail or password');
    expect(apiErrorText(error, tFr)).toBe('Adresse e-mail ou mot de passe incorrect.');
    expect(apiErrorText(error, tEn)).toBe('Invalid e-mail or password.');
  });

  it('translates the first rule key of a validation error', () => {
    const error = new ApiError(400, 'validation_error', 'password: password.error.too_short', [
      { path: 'password', message: 'password.error.too_short' },
    ]);
    expect(apiErrorText(error, tEn)).toBe(en.password.error.too_short);
    expect(apiErrorText(error, tFr)).toBe(fr.password.error.too_short);
  });

  it('keeps the API’s own message for codes without a translation, and falls back to the generic text', () => {
    expect(apiErrorText(new ApiError(409, 'conflict', 'Version 1.2.0 already exists'), tEn)).toBe(
      'Version 1.2.0 already exists',
    );
    expect(apiErrorText(new Error(''), tFr)).toBe(fr.errors.generic);
  });

  it('has a translation in both languages for every error code but the field-level and generic ones', () => {
    const codes = Object.values(ERROR_CODES).filter((code) => code !== 'validation_error' && code !== 'conflict');
    for (const code of codes) {
      expect(en.apiErrors, code).toHaveProperty(code);
      expect(fr.apiErrors, code).toHaveProperty(code);
    }
  });
});
