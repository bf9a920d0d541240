import { testDatabaseKinds } from '@customer-core/database/testing';
import { hostileInputSuite } from './support/hostile-input-suite.js';

// Hostile input across every route, on PostgreSQL when TEST_DATABASE_URL names one (hostile-input.test.ts:
// on PGlite). A file of its own so that it runs beside the other, not after it.
if (testDatabaseKinds().includes('postgres')) hostileInputSuite('postgres');
