import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { getPreferredLanguage, initI18n, isEnglishOnlyPath } from './lib/i18n';
import './styles.css';

// The marketplace is the usual first page: fetch its chunk alongside the strings instead of after the first
// render (React.lazy in the routes table then finds the module already loading).
if (window.location.pathname === '/marketplace') void import('./features/catalog/pages/marketplace-page');

// Start in the language this path will show, so a Tamil reader never sees an English flash.
const initial = isEnglishOnlyPath(window.location.pathname) ? 'en' : getPreferredLanguage();

void initI18n(initial)
  .catch(() => initI18n('en'))
  .finally(() => {
    createRoot(document.getElementById('root') as HTMLElement).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
