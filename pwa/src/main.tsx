import { getPreferredLanguage, initI18n, isEnglishOnlyPath, rememberLanguageCookie } from './lib/i18n';
import { startLiveCallEarly } from './lib/live-call-early';
import './styles.css';
// Listens for the browser's install offer from the first moment: it may come before the app has started.
import './features/pwa/install';

// A page reloaded during a call asks for the call, and starts the camera, before anything else (issue #50).
startLiveCallEarly();

// Start in the language this path will show, so a Tamil reader never sees an English flash.
const initial = isEnglishOnlyPath(window.location.pathname) ? 'en' : getPreferredLanguage();
rememberLanguageCookie(getPreferredLanguage());

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));

/** Resolves when the browser reports the page's first contentful paint (at once if it already has). */
function firstContentfulPaint(): Promise<void> {
  if (!PerformanceObserver.supportedEntryTypes?.includes('paint')) return nextFrame().then(nextTask);
  return new Promise((resolve) => {
    const observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName('first-contentful-paint').length === 0) return;
      observer.disconnect();
      resolve();
    });
    observer.observe({ type: 'paint', buffered: true });
  });
}

/** Resolves when an image has loaded (or failed to) and the frames that show it have been drawn. */
function imageShown(img: HTMLImageElement): Promise<void> {
  const loaded = img.complete
    ? Promise.resolve()
    : new Promise<void>((resolve) => {
        img.addEventListener('load', () => resolve(), { once: true });
        img.addEventListener('error', () => resolve(), { once: true });
      });
  return loaded.then(nextFrame).then(nextFrame).then(nextTask);
}

/**
 * Resolves once a server-rendered page has been painted, with its main picture (the image it fetches first,
 * `fetchpriority="high"`) when it has one. An empty shell (a signed-in reader's page) and a hidden tab, which
 * paints nothing, go on at once; after three seconds the app starts whatever the page is waiting for.
 */
function serverPageShown(): Promise<void> {
  if (document.visibilityState !== 'visible' || !document.getElementById('root')?.firstElementChild)
    return Promise.resolve();
  const picture = document.querySelector<HTMLImageElement>('img[fetchpriority="high"]');
  const shown = firstContentfulPaint().then(() => (picture ? imageShown(picture) : undefined));
  return Promise.race([shown, new Promise<void>((resolve) => setTimeout(resolve, 3000))]);
}

// The pages a visitor usually arrives on: their chunks are fetched alongside the app's own modules instead of
// after them (the routes table then finds the module already loading; a failure is its to report).
function requestArrivalPage() {
  const arrival = window.location.pathname;
  const quiet = () => undefined;
  if (arrival === '/') import('./features/home/pages/home-page').catch(quiet);
  else if (arrival === '/marketplace') import('./features/catalog/pages/marketplace-page').catch(quiet);
  else if (arrival.startsWith('/product/')) {
    import('./features/catalog/pages/product-page').catch(quiet);
    // Its actions row's call button, hydrated with the page (app/extension-registry.ts preloadProductActions).
    import('./features/calls/components/product-dialog-call-button').catch(quiet);
    import('./features/tryon/try-on-button').catch(quiet);
  }
}

/** Lets the browser paint and handle input before the next piece of start-up work. */
const yieldToBrowser = nextTask;

/**
 * Start-up in steps, each its own task: the strings, React, the route tree, the rest of the app's modules,
 * then the first render (src/boot.tsx).
 * One task running all of it kept a phone's main thread busy for a third of a second.
 */
async function start() {
  // The server's page is painted, with its main picture, before the app's scripts are requested: they would
  // share the phone's link with the picture, and the page works without them meanwhile (lib/pre-hydration.ts).
  await serverPageShown();
  requestArrivalPage();
  // The modules are requested together (each names every chunk it needs: pwa/vite.config.ts) and run in turn.
  const domModule = import('./lib/react-dom-client');
  // The route tree with the router (only what the app uses of it: a module of ours, so it stays tree-shaken).
  const routerModule = import('./app/router');
  const bootModule = import('./boot');
  // A live call (the page reloaded during it) is asked for as soon as that module is in (issue #50).
  void bootModule.then((m) => m.startLiveCall()).catch(() => undefined);
  await yieldToBrowser();
  const strings = initI18n(initial).catch(() => initI18n('en'));
  const dom = await domModule;
  await yieldToBrowser();
  await routerModule;
  await yieldToBrowser();
  const [{ boot }] = await Promise.all([bootModule, strings]);
  await yieldToBrowser();
  await boot(dom, initial);
}

void start();
