import { getPreferredLanguage, initI18n, isEnglishOnlyPath, rememberLanguageCookie } from './lib/i18n';
import './styles.css';
// Listens for the browser's install offer from the first moment: it may come before the app has started.
import './features/pwa/install';

// The marketplace is the usual first page: fetch its chunk alongside the strings instead of after the first
// render (the routes table then finds the module already loading).
if (window.location.pathname === '/marketplace') void import('./features/catalog/pages/marketplace-page');

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
  await yieldToBrowser();
  const strings = initI18n(initial).catch(() => initI18n('en'));
  const dom = await import('react-dom/client');
  await yieldToBrowser();
  // The route tree with the router (only what the app uses of it: a module of ours, so it stays tree-shaken).
  await import('./app/router');
  await yieldToBrowser();
  const [{ boot }] = await Promise.all([import('./boot'), strings]);
  await yieldToBrowser();
  await boot(dom, initial);
}

void start();
