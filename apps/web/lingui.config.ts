import type { LinguiConfig } from '@lingui/conf';
import { formatter } from '@lingui/format-po';

// The portal's languages: messages are written in English in the code (Lingui's macros), extracted to
// PO catalogues (src/locales/{locale}/), and compiled by Vite when a catalogue is loaded.
//
// Three catalogues per language, so that the sign-in route's first load carries only its own words:
// `sign-in` for what the first paint and the sign-in form say (the shell, shared components, the
// sign-in screen), `portal` for every other screen, fetched as the first of them loads
// (i18n/catalogs.ts), and `console` for the staff console (src/console), which borrowers never load.
// The build checks that the first paint needs nothing from `portal`.
const SIGNED_IN_COMPONENTS = ['factors', 'step-up', 'signed-in-shell'].map(
  (folder) => `<rootDir>/src/components/${folder}`,
);
const SHARED_MESSAGES = '<rootDir>/src/i18n/shared-messages.ts';
const CONSOLE = '<rootDir>/src/console';

const config: LinguiConfig = {
  sourceLocale: 'en-US',
  locales: ['en-US', 'es-US'],
  catalogs: [
    {
      path: '<rootDir>/src/locales/{locale}/sign-in',
      include: ['app', 'components', 'config', 'lib', 'i18n', 'features/sign-in', 'main.tsx'].map(
        (part) => `<rootDir>/src/${part}`,
      ),
      exclude: [...SIGNED_IN_COMPONENTS, SHARED_MESSAGES, CONSOLE],
    },
    {
      path: '<rootDir>/src/locales/{locale}/portal',
      include: ['<rootDir>/src/features', '<rootDir>/src/loans', ...SIGNED_IN_COMPONENTS, SHARED_MESSAGES],
      exclude: ['<rootDir>/src/features/sign-in', CONSOLE],
    },
    {
      path: '<rootDir>/src/locales/{locale}/console',
      include: [CONSOLE],
    },
  ],
  format: formatter({ lineNumbers: false }),
  orderBy: 'origin',
};

export default config;
