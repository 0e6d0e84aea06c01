// Every `import … from 'sonner'` in the app resolves here (the `nagai-sonner-bridge` plugin in
// pwa/vite.config.ts): loading sonner anywhere also mounts the root layout's Toaster, so sonner stays out of a
// page's first load until something on it can toast. Toasts raised before the Toaster mounts are replayed by it.
import { markToasterNeeded } from './toaster-signal';

export * from 'sonner';

markToasterNeeded();
