import { i18n } from '@lingui/core';
import { messages as english } from '../locales/en-US.po';
import { PSEUDO_LOCALE, type DisplayLocale } from './locale';

// English comes with the first paint; Spanish (and the pseudo-locale) only when chosen.
const catalogs: Record<DisplayLocale, () => Promise<typeof english>> = {
  'en-US': () => Promise.resolve(english),
  'es-US': () => import('../locales/es-US.po').then((catalog) => catalog.messages),
  [PSEUDO_LOCALE]: () => import('./pseudo-locale').then(({ pseudoLocalize }) => pseudoLocalize(english)),
};
const loaded = new Set<DisplayLocale>(['en-US']);

/** Loads a language's messages (once) and makes it the portal's: every screen re-renders in it. */
export async function activateLocale(locale: DisplayLocale): Promise<void> {
  if (!loaded.has(locale)) {
    i18n.load(locale, await catalogs[locale]());
    loaded.add(locale);
  }
  i18n.activate(locale);
  document.documentElement.lang = locale.slice(0, 2);
}

// Before the first render, English is ready without a wait.
i18n.loadAndActivate({ locale: 'en-US', messages: english });

export { i18n };
