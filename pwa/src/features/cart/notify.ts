import { errorMessage } from '../../lib/api-client';
import { i18n, translateMessage } from '../../lib/i18n';

/**
 * Toasts of the cart area. sonner is imported on demand, so the light Add to Cart and header buttons do not
 * bring it into the marketplace's first load.
 */
export function notifySuccess(key: string): void {
  const text = i18n.t(key);
  void import('sonner').then(({ toast }) => toast.success(text));
}

/** A failure toast 'Failed to …: {message}', the server's message translated, else 'An unknown error occurred'. */
export function notifyFailure(key: string, err: unknown): void {
  const raw = errorMessage(err, '');
  const message = raw ? translateMessage(raw) : i18n.t('messages.cart.unknownError');
  const text = i18n.t(key, { message });
  void import('sonner').then(({ toast }) => toast.error(text));
}
