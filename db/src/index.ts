// The database package: table types, connection and migrations, shared by the API and scripts.
export * from './schema.ts';
export {
  connect,
  migrateToLatest,
  pendingMigrations,
  isPostgresUrl,
  sqlitePathFromUrl,
  type ConnectOptions,
  type DatabaseHandle,
  type Dialect,
} from './connect.ts';
export { isoNow, toIso } from './time.ts';
export { isDatabaseUnavailable } from './unavailable.ts';
export { arg, keptPlans, prepared, preparedWrite } from './prepared.ts';
export { deferredWrite, readTogether } from './deferred-writes.ts';
export { byPlace, columnsOf, perRound, type ManyArgs } from './round-batch.ts';
export { availabilityGeneration, availabilityGenerations, type Generations } from './availability-generation.ts';
