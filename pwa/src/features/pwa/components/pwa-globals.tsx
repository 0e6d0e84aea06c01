import { useEffect } from 'react';
import { HeaderSlot } from '../../../app/header-slots';
import { registerServiceWorker } from '../sw-registration';
import { InstallButton } from './install-button';
import { OfflineBanner } from './offline-banner';
import { UpdatePrompt } from './update-prompt';

/**
 * The installable-app layer on every page: registers the service worker after the page has loaded,
 * offers updates and installation, and says when the browser is offline.
 */
export function PwaGlobals() {
  useEffect(() => {
    // After 'load', so registering and precaching never compete with the first page's own requests.
    if (document.readyState === 'complete') void registerServiceWorker();
    else {
      const onLoad = () => void registerServiceWorker();
      window.addEventListener('load', onLoad, { once: true });
      return () => window.removeEventListener('load', onLoad);
    }
  }, []);
  return (
    <>
      <HeaderSlot name="actions">
        <InstallButton />
      </HeaderSlot>
      <div className="pointer-events-none fixed inset-x-0 bottom-0 z-50 flex flex-col items-center gap-2 p-3 sm:items-end sm:p-4">
        <UpdatePrompt />
        <OfflineBanner />
      </div>
    </>
  );
}
