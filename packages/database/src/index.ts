export { openDatabase, describeLocation, type DatabaseLocation } from './database.js';
export { migrateToLatest, isMigrated, type Migrations } from './migrations.js';
