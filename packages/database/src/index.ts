export {
  openDatabase,
  prepareDatabase,
  describeLocation,
  postgresTimeouts,
  poolUsage,
  statementsSent,
  statementsUnprepared,
  type DatabaseLocation,
} from './database.js';
export { isConnectionLoss } from './connection-loss.js';
export { compiledOnce } from './compiled-once.js';
export { PREPARED_PER_CONNECTION } from './prepared-statements.js';
export {
  migrateToLatest,
  isMigrated,
  schemaStatus,
  MigrationLockTimeoutError,
  SchemaMismatchError,
  type MigrateOptions,
  type Migrations,
  type SchemaMigration,
  type SchemaStatus,
} from './migrations.js';
export {
  listenForNotifications,
  type NotificationHandlers,
  type NotificationListener,
} from './notifications.js';
export { newOneTimeToken, oneTimeTokenHash } from './one-time-token.js';
export {
  createSecretBox,
  isSealed,
  parseSecretKeys,
  secretPlace,
  SecretOpenError,
  type SecretBox,
  type SecretKey,
} from './secret-box.js';
export { placeIn, resealColumn, resealColumns, type SealedColumn } from './sealed-columns.js';
