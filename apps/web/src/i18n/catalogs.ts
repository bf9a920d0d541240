import { i18n, type Messages } from '@lingui/core';
import { messages as englishSignIn } from '../locales/en-US/sign-in.po';
import { PSEUDO_LOCALE, type DisplayLocale } from './locale';

// Each language's words in two catalogues (lingui.config.ts): `sign-in`, which the first paint needs,
// and `portal`, for every other screen. English's `sign-in` comes with the first paint; anything else
// is fetched when needed: a language's `sign-in` before the first render in it, its `portal` as the
// first screen that needs it loads (withPortalMessages), and on a change of language if one has.
type Part = 'sign-in' | 'portal';
const englishPortal = () => import('../locales/en-US/portal.po').then((catalog) => catalog.messages);
const pseudo = (english: Promise<Messages>) =>
  Promise.all([english, import('./pseudo-locale')]).then(([messages, { pseudoLocalize }]) =>
    pseudoLocalize(messages),
  );
const catalogues: Record<DisplayLocale, Record<Part, () => Promise<Messages>>> = {
  'en-US': { 'sign-in': () => Promise.resolve(englishSignIn), portal: englishPortal },
  'es-US': {
    'sign-in': () => import('../locales/es-US/sign-in.po').then((catalog) => catalog.messages),
    portal: () => import('../locales/es-US/portal.po').then((catalog) => catalog.messages),
  },
  [PSEUDO_LOCALE]: {
    'sign-in': () => pseudo(Promise.resolve(englishSignIn)),
    portal: () => pseudo(englishPortal()),
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

let portalNeeded = false;
let active: DisplayLocale = 'en-US';

/** Loads a language's messages (once) and makes it the portal's: every screen re-renders in it. */
export async function activateLocale(locale: DisplayLocale): Promise<void> {
  await Promise.all([load(locale, 'sign-in'), portalNeeded ? load(locale, 'portal') : undefined]);
  active = locale;
  i18n.activate(locale);
  document.documentElement.lang = locale.slice(0, 2);
}

/** The words of the screens past sign-in (and the shared schemas' messages), in the portal's language. */
export function portalMessages(): Promise<void> {
  portalNeeded = true;
  return load(active, 'portal');
}

/** A screen's module, once the words of the screens past sign-in are there too in the portal's language. */
export function withPortalMessages<M>(module: Promise<M>): Promise<M> {
  return Promise.all([module, portalMessages()]).then(([loaded]) => loaded);
}

// Before the first render, English is ready without a wait.
i18n.loadAndActivate({ locale: 'en-US', messages: englishSignIn });
loading.set('en-US/sign-in', Promise.resolve());

export { i18n };
