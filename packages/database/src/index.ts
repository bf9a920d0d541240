export { openDatabase, describeLocation, type DatabaseLocation } from './database.js';
export { migrateToLatest, isMigrated, type Migrations } from './migrations.js';
export {
  listenForNotifications,
  type NotificationHandlers,
  type NotificationListener,
} from './notifications.js';
