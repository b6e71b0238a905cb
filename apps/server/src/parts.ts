// Long-running parts of the server besides HTTP (broker and ingest, live events, auto-tune, mail,
// chat bot, simulator). Each starts with the shared context and returns how to stop it.
// main.ts and the test harness start them in this order and stop them in reverse.
import type { AppContext } from './context';
import { demoUserPart } from './accounts/demo-user';
import { tokenHousekeepingPart } from './accounts/housekeeping';
import { healthRetentionPart } from './health/retention';
import { botPart } from './bot/part';
import { mailPart } from './mail/part';
import { networkPart } from './network/part';
import { autoTunePart } from './network/auto-tune';
import { simulatorPart } from './simulator/part';

export interface RunningPart {
  stop(): Promise<void>;
}

export interface Part {
  name: string;
  /** Return null when the part is switched off by configuration. */
  start(ctx: AppContext): Promise<RunningPart | null>;
}

export const parts: Part[] = [
  mailPart,
  botPart,
  demoUserPart,
  tokenHousekeepingPart,
  healthRetentionPart,
  networkPart,
  autoTunePart,
  simulatorPart,
];
