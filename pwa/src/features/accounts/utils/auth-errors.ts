import { ACCOUNT_MESSAGES } from '../../../../../api/contract/accounts';
import { REQUEST_FAILED } from '../../../lib/api-client';
import { i18n, translateMessage } from '../../../lib/i18n';

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message.trim() : '';
}

/**
 * A failed login: the server's message (translated when known), else 'Login failed' (docs/product-rules.md §8). When no
 * answer came at all (network down, server error without a message) the reader is told to try again.
 */
export function loginErrorText(err: unknown): string {
  const message = messageOf(err);
  if (message === REQUEST_FAILED) return i18n.t('messages.accounts.loginFailedRetry');
  return message ? translateMessage(message) : i18n.t('messages.accounts.loginFailed');
}

/**
 * A failed registration, mapped as docs/product-rules.md §8 says: 'Email already in use' → the already-registered text; a
 * message about the display name → the invalid-name text; one mentioning 'display' or 'name' → the prefix plus
 * the message; otherwise the message, else 'Registration failed. Please try again.'
 */
export function registrationErrorText(err: unknown): string {
  const message = messageOf(err);
  if (message === REQUEST_FAILED) return i18n.t('messages.accounts.registrationFailed');
  const lower = message.toLowerCase();
  if (message.includes(ACCOUNT_MESSAGES.emailAlreadyInUse)) return i18n.t('messages.accounts.emailInUse');
  if (lower.includes('display name')) return i18n.t('messages.accounts.invalidDisplayName');
  if (lower.includes('display') || lower.includes('name')) {
    return i18n.t('messages.accounts.displayNameErrorPrefix') + translateMessage(message);
  }
  return message ? translateMessage(message) : i18n.t('messages.accounts.registrationFailed');
}
