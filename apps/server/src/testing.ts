// What the benchmarks (bench/) may use of the server beyond `createServer`: assembly, storage and
// the reads whose query plans they check. One entry, `@tinygs/server/testing`, so nothing outside
// this package reaches into its files.
export { loadConfig } from './config';
export { createServer, type Server } from './server';
export type { AppContext } from './context';
export { openDatabase } from './db/connect';
export { migrateToLatest } from './db/migrate';
export * as partitionMigration from './db/migrations/0016_partition_packets';
export { monthsBetween, partitionMonth } from './db/partition-months';
export { createMonthPartition } from './repositories/partitions';
export type { Database } from './db/schema';
export { encryptSecret } from './lib/crypto';
export { BROKER_TUNING } from './network/broker';
export { serverBrokerPassword } from './network/broker-accounts';
export { createNetworkPart } from './network/part';
export { DEFAULT_SSE_OPTIONS, STATIONS_COALESCE_MS } from './network/sse';
export { STATION_STATS_MAX_FRAMES } from './public-api/station/service';
export { readCounters } from './repositories/counters';
export { insertUser } from './repositories/users';
export { listStationListItems, newStationRow } from './repositories/stations';
export { lastTelemetry } from './repositories/public/catalogue-reads';
export { findStation } from './repositories/public/station-reads';
export {
  countPacketsUpTo,
  exportPage,
  findPacket,
  firstPackets,
  latestPackets,
  packetDetailQuery,
  receptionsOf,
  stationFramesSince,
  stationPackets,
} from './repositories/public/packet-reads';
export { storeTelemetrySamples } from './repositories/telemetry';
