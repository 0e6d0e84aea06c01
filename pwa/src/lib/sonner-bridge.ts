// Every `import … from 'sonner'` in the app resolves here (the `nagai-sonner-bridge` plugin in
// pwa/vite.config.ts): loading sonner anywhere also mounts the root layout's Toaster, so sonner stays out of a
// page's first load until something on it can toast. Toasts raised before the Toaster mounts are replayed by it.
import { toast as sonnerToast, type ExternalToast } from 'sonner';
import { markToasterNeeded } from './toaster-signal';

export * from 'sonner';

/**
 * The same message is shown once: a toast whose text (and description) is already on screen replaces it instead
 * of piling up beside it, so five taps that fail the same way give one toast. A caller's own `id` wins.
 */
export function toastId(message: unknown, data?: ExternalToast): ExternalToast | undefined {
  if (data?.id !== undefined || typeof message !== 'string') return data;
  const description = typeof data?.description === 'string' ? `\n${data.description}` : '';
  return { ...data, id: `${message}${description}` };
}

type Show = (message: Parameters<typeof sonnerToast.success>[0], data?: ExternalToast) => string | number;
const once =
  (show: Show): Show =>
  (message, data) =>
    show(message, toastId(message, data));

/** sonner's `toast`, each kind deduplicated by its message (see `toastId`). */
export const toast: typeof sonnerToast = Object.assign(once(sonnerToast), {
  ...sonnerToast,
  success: once(sonnerToast.success),
  info: once(sonnerToast.info),
  warning: once(sonnerToast.warning),
  error: once(sonnerToast.error),
  message: once(sonnerToast.message),
});

markToasterNeeded();
