import { i18n, type Messages } from '@lingui/core';
import { messages as englishSignIn } from '../locales/en-US/sign-in.po';
import { PSEUDO_LOCALE, type DisplayLocale } from './locale';

// Each language's words in three catalogues (lingui.config.ts): `sign-in`, which the first paint needs,
// `portal`, for every other screen, and `console`, for the staff console (which borrowers never load).
// English's `sign-in` comes with the first paint; anything else is fetched when needed: a language's
// `sign-in` before the first render in it, its `portal` as the first screen that needs it loads
// (withPortalMessages), its `console` with the console (withConsoleMessages), and on a change of
// language each part needed so far.
type Part = 'sign-in' | 'portal' | 'console';
const englishPortal = () => import('../locales/en-US/portal.po').then((catalog) => catalog.messages);
const englishConsole = () => import('../locales/en-US/console.po').then((catalog) => catalog.messages);
const pseudo = (english: Promise<Messages>) =>
  Promise.all([english, import('./pseudo-locale')]).then(([messages, { pseudoLocalize }]) =>
    pseudoLocalize(messages),
  );
const catalogues: Record<DisplayLocale, Record<Part, () => Promise<Messages>>> = {
  'en-US': {
    'sign-in': () => Promise.resolve(englishSignIn),
    portal: englishPortal,
    console: englishConsole,
  },
  'es-US': {
    'sign-in': () => import('../locales/es-US/sign-in.po').then((catalog) => catalog.messages),
    portal: () => import('../locales/es-US/portal.po').then((catalog) => catalog.messages),
    console: () => import('../locales/es-US/console.po').then((catalog) => catalog.messages),
  },
  [PSEUDO_LOCALE]: {
    'sign-in': () => pseudo(Promise.resolve(englishSignIn)),
    portal: () => pseudo(englishPortal()),
    console: () => pseudo(englishConsole()),
  },
};

const loading = new Map<string, Promise<void>>();
function load(locale: DisplayLocale, part: Part): Promise<void> {
  const key = `${locale}/${part}`;
  let loaded = loading.get(key);
  if (!loaded) {
    // i18n.load adds to the language's messages; a failed fetch is tried again next time.
    loaded = catalogues[locale][part]().then(
      (messages) => i18n.load(locale, messages),
      (error: unknown) => {
        loading.delete(key);
        throw error;
      },
    );
    loading.set(key, loaded);
  }
  return loaded;
}

/** The parts the page has needed so far: a change of language loads each of them in the new one. */
const needed = new Set<Part>(['sign-in']);
let active: DisplayLocale = 'en-US';

/** Loads a language's messages (once) and makes it the portal's: every screen re-renders in it. */
export async function activateLocale(locale: DisplayLocale): Promise<void> {
  await Promise.all([...needed].map((part) => load(locale, part)));
  active = locale;
  i18n.activate(locale);
  document.documentElement.lang = locale.slice(0, 2);
}

/** The words of `parts`, in the portal's language, from now on in any language chosen later too. */
function messagesOf(parts: Part[]): Promise<void> {
  for (const part of parts) needed.add(part);
  return Promise.all(parts.map((part) => load(active, part))).then(() => undefined);
}

/** The words of the screens past sign-in (and the shared schemas' messages), in the portal's language. */
export function portalMessages(): Promise<void> {
  return messagesOf(['portal']);
}

/** A screen's module, once the words of the screens past sign-in are there too in the portal's language. */
export function withPortalMessages<M>(module: Promise<M>): Promise<M> {
  return Promise.all([module, portalMessages()]).then(([loaded]) => loaded);
}

/**
 * The staff console's module, once its words are there in the portal's language, and the portal's
 * too (its factor screens and the shared schemas' messages, which the console shows).
 */
export function withConsoleMessages<M>(module: Promise<M>): Promise<M> {
  return Promise.all([module, messagesOf(['portal', 'console'])]).then(([loaded]) => loaded);
}

// Before the first render, English is ready without a wait.
i18n.loadAndActivate({ locale: 'en-US', messages: englishSignIn });
loading.set('en-US/sign-in', Promise.resolve());

export { i18n };
