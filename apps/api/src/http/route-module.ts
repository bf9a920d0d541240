import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** A route plugin of a module: built from only what it uses. */
type RoutePlugin = (deps: never) => FastifyPluginAsyncZod;

type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** What a module's routes use together: every route's dependencies. */
export type ModuleDeps<R extends readonly RoutePlugin[]> = Intersection<Parameters<R[number]>[0]>;

/**
 * A plugin with its name for Fastify's errors and plugin tree. Fastify looks for the name of a plugin
 * registered without one among every loaded CommonJS module: a twentieth of building the app.
 */
export function namedPlugin<P extends object>(name: string, plugin: P): P {
  return Object.assign(plugin, { [Symbol.for('fastify.display-name')]: name });
}

/**
 * A module's one Fastify plugin: its routes, each registered as a plugin of its own (a route's hooks
 * stay its own), each handed the module's dependencies, of which it declares only what it uses.
 */
export function routeModule<R extends readonly RoutePlugin[]>(routes: R) {
  const name = routes.map((route) => route.name).join(', ');
  return (deps: ModuleDeps<R>): FastifyPluginAsyncZod =>
    namedPlugin(name, async (app) => {
      for (const route of routes) {
        const plugin = (route as (deps: ModuleDeps<R>) => FastifyPluginAsyncZod)(deps);
        await app.register(namedPlugin(route.name, plugin));
      }
    });
}
