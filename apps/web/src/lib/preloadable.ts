import { lazy, type ComponentType } from 'react';

/**
 * A module loaded on demand that may be fetched before it is shown: `load()` fetches it (once, again
 * after a failure), and `lazy(pick)` is React.lazy over it. Once the module has arrived, that lazy
 * component renders at once: its loader then answers with a thenable that calls back synchronously,
 * which React.lazy takes as resolved. A Promise always answers later, so React would suspend anyway,
 * show the fallback, and hold the screen back for its fallback throttle (300 ms) once it could show.
 */
export function preloadable<M>(importer: () => Promise<M>) {
  let loaded: M | undefined;
  let loading: Promise<M> | undefined;
  const load = (): Promise<M> =>
    (loading ??= importer().then(
      (module) => (loaded = module),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  function lazyOf<P extends object>(pick: (module: M) => ComponentType<P>) {
    return lazy(() => {
      if (loaded === undefined) return load().then((module) => ({ default: pick(module) }));
      const answer = { default: pick(loaded) };
      const settled = { then: (resolve: (value: typeof answer) => void) => resolve(answer) };
      return settled as unknown as Promise<typeof answer>;
    });
  }
  return { load, lazy: lazyOf };
}
