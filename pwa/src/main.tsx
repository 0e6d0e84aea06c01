import { getPreferredLanguage, initI18n, isEnglishOnlyPath, rememberLanguageCookie } from './lib/i18n';
import './styles.css';
// Listens for the browser's install offer from the first moment: it may come before the app has started.
import './features/pwa/install';

// The pages a visitor usually arrives on: their chunks are fetched alongside the app's own modules instead of
// after them (the routes table then finds the module already loading; a failure is its to report).
const arrival = window.location.pathname;
const quiet = () => undefined;
if (arrival === '/') import('./features/home/pages/home-page').catch(quiet);
else if (arrival === '/marketplace') import('./features/catalog/pages/marketplace-page').catch(quiet);
else if (arrival.startsWith('/product/')) import('./features/catalog/pages/product-page').catch(quiet);

// Start in the language this path will show, so a Tamil reader never sees an English flash.
const initial = isEnglishOnlyPath(window.location.pathname) ? 'en' : getPreferredLanguage();
rememberLanguageCookie(getPreferredLanguage());

/** Lets the browser paint and handle input before the next piece of start-up work. */
const yieldToBrowser = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Start-up in steps, each its own task: the strings, React, the route tree, the rest of the app's modules,
 * then the first render (src/boot.tsx).
 * One task running all of it kept a phone's main thread busy for a third of a second.
 */
async function start() {
  // The modules are requested together (each names every chunk it needs: pwa/vite.config.ts) and run in turn.
  const domModule = import('react-dom/client');
  // The route tree with the router (only what the app uses of it: a module of ours, so it stays tree-shaken).
  const routerModule = import('./app/router');
  const bootModule = import('./boot');
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
