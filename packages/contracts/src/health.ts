// Station health (server addition): every online/offline transition with its cause, uptime and
// packets per day over the last 7 or 30 days.
import { z } from 'zod';
import { StationIdSchema } from './ids';

/**
 * Why a station came online or went offline:
 * - connect: the firmware's welcome on a broker connection
 * - activity: a ping or a reception from a station that was offline
 * - last-will: the broker delivered the firmware's last will (`tele/status` 0)
 * - disconnect: the broker connection the station spoke through closed
 * - ping-timeout: nothing heard for STATION_OFFLINE_AFTER_MS
 * - restart: the server restarted while the station was online
 */
export const STATION_STATUS_CAUSES = [
  'connect',
  'activity',
  'last-will',
  'disconnect',
  'ping-timeout',
  'restart',
] as const;
export type StationStatusCause = (typeof STATION_STATUS_CAUSES)[number];
export type OfflineCause = Exclude<StationStatusCause, 'connect' | 'activity'>;

export const STATION_STATUS_CAUSE_TEXTS: Record<StationStatusCause, string> = {
  connect: 'Connected to the broker',
  activity: 'Heard from again',
  'last-will': 'Connection lost (last will)',
  disconnect: 'Disconnected from the broker',
  'ping-timeout': 'No ping for 5 minutes',
  restart: 'Server restarted',
};

/** The windows the health call answers for. */
export const STATION_HEALTH_DAYS = ['7', '30'] as const;
/** At most this many transitions (the newest) are listed; uptime counts every one. */
export const STATION_HEALTH_MAX_TRANSITIONS = 1000;

export const StationHealthQuerySchema = z.object({
  days: z.enum(STATION_HEALTH_DAYS, { error: 'days must be 7 or 30' }).default('7'),
});

export const StatusTransitionSchema = z.object({
  /** epoch ms */
  at: z.number().int(),
  online: z.boolean(),
  cause: z.enum(STATION_STATUS_CAUSES),
});
export type StatusTransition = z.infer<typeof StatusTransitionSchema>;

export const StationHealthDaySchema = z.object({
  /** YYYY-MM-DD, UTC */
  day: z.string(),
  /** share of the day's known time the station was online, 0-100; null when nothing is known */
  uptimePercent: z.number().nullable(),
  /** packets the station received that day (CRC errors not counted) */
  packets: z.number().int(),
});
export type StationHealthDay = z.infer<typeof StationHealthDaySchema>;

export const StationHealthResponseSchema = z.object({
  stationId: StationIdSchema,
  days: z.number().int(),
  /** start of the window: 00:00 UTC, days - 1 days before today */
  from: z.number().int(),
  /** the time of the answer */
  to: z.number().int(),
  online: z.boolean(),
  /** whether the station was online at `from`; null when unknown */
  onlineAtStart: z.boolean().nullable(),
  /** online share of the window's known time, 0-100; null when nothing is known */
  uptimePercent: z.number().nullable(),
  /** times the station went offline in the window */
  outages: z.number().int(),
  /** average packets per day over the window */
  packetsPerDay: z.number(),
  /** transitions in the window, oldest first (the newest STATION_HEALTH_MAX_TRANSITIONS) */
  transitions: z.array(StatusTransitionSchema),
  transitionsTruncated: z.boolean(),
  daily: z.array(StationHealthDaySchema),
});
export type StationHealth = z.infer<typeof StationHealthResponseSchema>;
