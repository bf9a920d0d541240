import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** A route plugin of a module: built from only what it uses. */
type RoutePlugin = (deps: never) => FastifyPluginAsyncZod;

type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** What a module's routes use together: every route's dependencies. */
export type ModuleDeps<R extends readonly RoutePlugin[]> = Intersection<Parameters<R[number]>[0]>;

/**
 * A module's one Fastify plugin: its routes, each registered as a plugin of its own (a route's hooks
 * stay its own), each handed the module's dependencies, of which it declares only what it uses.
 */
export function routeModule<R extends readonly RoutePlugin[]>(routes: R) {
  return (deps: ModuleDeps<R>): FastifyPluginAsyncZod =>
    async (app) => {
      for (const route of routes) {
        await app.register((route as (deps: ModuleDeps<R>) => FastifyPluginAsyncZod)(deps));
      }
    };
}
