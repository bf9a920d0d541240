import { z } from 'zod';
import { LOCALES } from './locale.js';

// Apart from locale.ts, which the portal's first paint reads without zod, and from the account's
// schemas, which a sign-in's calls do not need.

/** One of the portal's languages (LOCALES), as a BCP 47 tag: `en-US` or `es-US`. */
export const LocaleSchema = z.enum(LOCALES, {
  error: 'Choose one of the portal’s languages: en-US or es-US.',
});
