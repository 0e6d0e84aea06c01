import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { getPreferredLanguage, initI18n, isEnglishOnlyPath } from './lib/i18n';
import './styles.css';

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
