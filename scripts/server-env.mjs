/**
 * Environment the portal's server process is started with, by `npm start` and the benchmarks.
 *
 * Each password check (argon2id) borrows 19 MiB. glibc's malloc raises its threshold for mapping big
 * blocks once the first is freed, and then keeps later ones in its arenas: ~100 MB the process never
 * gives back. A fixed threshold returns each block when it is freed (README: Operating it).
 */
export const SERVER_ENV = { MALLOC_MMAP_THRESHOLD_: '131072' };
