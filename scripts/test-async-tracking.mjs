// Node's test runner (20.x) learns which test is running from an async hook (internal/test_runner/
// harness.js, `setup`): every asynchronous resource is mapped to the test that made it, each promise
// included, and unmapped when the garbage collector destroys it. That bookkeeping for every promise of
// PGlite, Kysely and Fastify cost the API tier 5 to 20 % of its CPU (alternating runs). Here the
// runner's hook is given the resources that are not promises only, so that the destroy tracking of every
// promise is never switched on. What the runner reads from the map keeps working (apps/api/test/test-runner.test.ts):
// - which suite a describe's `it` and hooks belong to: their bodies run synchronously in the suite's
//   own resource;
// - the test an uncaught error belongs to, when its timer or socket was made before the test's first
//   await.
// An uncaught error from later in a test (after an await) is reported beside the tests, as a resource's
// "asynchronous activity after the test ended", and still fails the run.
// Any other caller of createHook gets Node's own; and a Node whose runner sets up otherwise, its own.
import asyncHooks from 'node:async_hooks';

const createHook = asyncHooks.createHook;
const RUNNER_SETUP = /^\s+at setup \(node:internal\/test_runner\/harness:/;

asyncHooks.createHook = function createHookOutsidePromises(callbacks) {
  // The frame that called createHook: the runner's `setup`, once per process.
  if (!RUNNER_SETUP.test(new Error().stack?.split('\n')[2] ?? '')) return createHook.call(this, callbacks);
  asyncHooks.createHook = createHook;
  const { init } = callbacks;
  // No destroy: the resources mapped now are few (tests, hooks, and what they start before an await),
  // and a destroy callback is what makes Node track the end of every promise.
  return createHook({
    init(asyncId, type, triggerAsyncId, resource) {
      if (type !== 'PROMISE') init(asyncId, type, triggerAsyncId, resource);
    },
  });
};
