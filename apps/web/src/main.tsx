// Global styles first, so that component styles come after them in the cascade.
import './styles/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { activateLocale } from './i18n/catalogs';
import { initialLocale } from './i18n/locale';
import { startErrorReporting } from './lib/error-reporting';

// The portal's Content-Security-Policy refuses eval: zod validates without compiling its checks, and
// so never probes for eval (the browser reports even a refused probe as a violation). Set where zod's
// config() keeps it (one object on globalThis, read as zod loads) rather than by config(), which would
// bring zod into the first load; the browser tests fail on any violation, should zod move it.
const zodHolder = globalThis as { __zod_globalConfig?: Record<string, unknown> };
zodHolder.__zod_globalConfig = Object.assign(zodHolder.__zod_globalConfig ?? {}, { jitless: true });

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

// English is there already; another language is fetched before the first render, so that nothing
// shows in English first.
void activateLocale(initialLocale()).then(() => {
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
  startErrorReporting();
});
