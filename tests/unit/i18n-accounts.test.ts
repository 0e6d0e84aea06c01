import { beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES as M } from '../../api/contract/accounts';
import ta from '../../locales/ta.json';
import { ApiError } from '../../pwa/src/lib/api-client';
import { applyLanguage, initI18n } from '../../pwa/src/lib/i18n';
import { loginErrorText, registrationErrorText } from '../../pwa/src/features/accounts/utils/auth-errors';

const fail = (message: string, status = 400) => new ApiError(message, status);

describe('account error texts (docs/product-rules.md §8)', () => {
  beforeAll(async () => {
    await initI18n('en');
  });

  it('login: the server message, else Login failed; no answer at all → try again', async () => {
    await applyLanguage('en');
    expect(loginErrorText(fail(M.invalidCredentials, 401))).toBe('Invalid email or password.');
    expect(loginErrorText(new Error(''))).toBe('Login failed');
    expect(loginErrorText('weird')).toBe('Login failed');
    expect(loginErrorText(fail('Request failed', 0))).toBe('Login failed. Please try again.');
    expect(
      loginErrorText(fail('Too many failed login attempts. Please wait 3 minute(s) and try again.', 429)),
    ).toBe('Too many failed login attempts. Please wait 3 minute(s) and try again.');
  });

  it('registration maps email-in-use, display-name and other messages', async () => {
    await applyLanguage('en');
    expect(registrationErrorText(fail('Email already in use', 409))).toBe(
      'This email is already registered. Please try logging in instead.',
    );
    expect(registrationErrorText(fail('Display name cannot exceed 100 characters.'))).toBe(
      "Please provide a valid display name that isn't empty.",
    );
    expect(registrationErrorText(fail('Name is required'))).toBe(
      'Please check your display name: Name is required',
    );
    expect(registrationErrorText(fail('Invalid email address.'))).toBe('Invalid email address.');
    expect(registrationErrorText(new Error(''))).toBe('Registration failed. Please try again.');
    expect(registrationErrorText(fail('Request failed', 500))).toBe('Registration failed. Please try again.');
  });

  it('shows the same outcomes in Tamil', async () => {
    await applyLanguage('ta');
    expect(loginErrorText(fail(M.invalidCredentials, 401))).toBe(ta.messages.accounts.invalidCredentials);
    expect(loginErrorText(new Error(''))).toBe(ta.messages.accounts.loginFailed);
    expect(registrationErrorText(fail('Email already in use', 409))).toBe(ta.messages.accounts.emailInUse);
    expect(registrationErrorText(fail('Name is required'))).toBe(
      ta.messages.accounts.displayNameErrorPrefix + ta.messages.accounts.nameRequired,
    );
    await applyLanguage('en');
  });
});
