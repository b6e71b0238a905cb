// Long-running parts of the server besides HTTP (broker and ingest, live events, auto-tune, mail,
// chat bot, the pictures' WebP backfill, element-set refresh, simulator). Each starts with the
// shared context and returns how to stop it. main.ts and the test harness start them in this
// order and stop them in reverse.
import type { Part } from './part';
import { demoUserPart } from './accounts/demo-user';
import { tokenHousekeepingPart } from './accounts/housekeeping';
import { pictureWebpBackfillPart } from './accounts/picture-backfill';
import { healthRetentionPart } from './health/retention';
import { offlineAlertsPart } from './health/offline-alerts';
import { telemetryRetentionPart } from './telemetry/retention';
import { partitionMaintenancePart } from './jobs/partition-maintenance';
import { botPart } from './bot/part';
import { elementSetsPart } from './elements/part';
import { mailPart } from './mail/part';
import { networkPart } from './network/part';
import { autoTunePart } from './network/auto-tune';
import { simulatorPart } from './simulator/part';
import { sharedStatePart } from './cluster/shared-state';
import { elected } from './cluster/lease';
import { satnogsForwardingPart } from './satnogs/part';

// With REDIS_URL the parts wrapped in `elected` run on one instance of the network only (the bot:
// the chat platform hands updates to one poller per token).
export const parts: Part[] = [
  sharedStatePart,
  mailPart,
  elected(botPart),
  elected(demoUserPart),
  elected(tokenHousekeepingPart),
  elected(pictureWebpBackfillPart),
  elected(healthRetentionPart),
  elected(offlineAlertsPart),
  elected(telemetryRetentionPart),
  elected(partitionMaintenancePart),
  networkPart,
  elected(autoTunePart),
  elected(elementSetsPart),
  elected(satnogsForwardingPart),
  elected(simulatorPart),
];
