/**
 * Environment the portal's server process is started with, by `npm start` and the benchmarks.
 *
 * Each password check (argon2id) borrows 19 MiB. glibc's malloc raises its threshold for mapping big
 * blocks once the first is freed, and then keeps later ones in its arenas: ~100 MB the process never
 * gives back. A fixed threshold returns each block when it is freed (README: Operating it).
 */
export const SERVER_ENV = { MALLOC_MMAP_THRESHOLD_: '131072' };

/**
 * Node options the server process is started with.
 * - V8's young generation grows to 2 × 16 MB per process under load and keeps its pages; 2 × 8 MB took
 *   ~20 MB off the server's RSS in every bench phase at the same throughput, with scavenges twice as
 *   often, each as cheap.
 * - Between full collections V8 let the old generation grow to about twice what was live after the
 *   last one (~50 MB live; ~110 MB reached in a sign-in phase before a full collection). Growing by
 *   20 % at most took 30–70 MB off the peak of each bench phase on PostgreSQL, with CPU per request
 *   within the runs' noise (bench/README.md).
 */
export const SERVER_NODE_ARGS = ['--max-semi-space-size=8', '--heap-growing-percent=20'];
