import { hostileInputSuite } from './support/hostile-input-suite.js';

// Hostile input across every route, on PGlite (hostile-input-postgres.test.ts: on PostgreSQL).
hostileInputSuite('pglite');
