// The page of the component tests: happy-dom's window, its DOM on the global object as a browser has
// it. Node's own globals (fetch, URL, timers, events, ...) stay as they are: the other test files of
// the process (the runner runs several in one) use them. Imported first by every component test.
import { after, afterEach } from 'node:test';
import { Window } from 'happy-dom';

const page = new Window({ url: 'http://localhost/', width: 1280, height: 800 });
const methods = Object.getPrototypeOf(Object.getPrototypeOf(page)) as object;
const names = new Set([...Object.getOwnPropertyNames(page), ...Object.getOwnPropertyNames(methods)]);
for (const name of names) {
  if (name === 'constructor' || name in globalThis) continue;
  const bind = Object.hasOwn(methods, name);
  Object.defineProperty(globalThis, name, {
    configurable: true,
    get(): unknown {
      const value = (page as unknown as Record<string, unknown>)[name];
      return bind && typeof value === 'function' ? (value as () => unknown).bind(page) : value;
    },
    set(value: unknown) {
      (page as unknown as Record<string, unknown>)[name] = value;
    },
  });
}
// The build's constants (vite.config.ts's define).
Object.assign(globalThis, {
  IS_REACT_ACT_ENVIRONMENT: true,
  __APP_NAME__: 'customer-core',
  __APP_VERSION__: '0.0.0-test',
});

const { cleanup } = await import('@testing-library/react');
// Registered on the process's root test: every rendered tree goes after its test, and the page after all.
afterEach(() => cleanup());
after(() => page.happyDOM.close());
