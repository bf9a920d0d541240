import type { LinguiConfig } from '@lingui/conf';
import { formatter } from '@lingui/format-po';

// The portal's languages: messages are written in English in the code (Lingui's macros), extracted to
// one PO catalog per language (src/locales), and compiled by Vite when a language is loaded.
const config: LinguiConfig = {
  sourceLocale: 'en-US',
  locales: ['en-US', 'es-US'],
  catalogs: [{ path: '<rootDir>/src/locales/{locale}', include: ['<rootDir>/src'] }],
  format: formatter({ lineNumbers: false }),
  orderBy: 'message',
};

export default config;
