// Leaderboards (server addition, issue 19): the top stations by confirmed packets, by satellites
// heard and by record distance, and the top satellites by packets, over the last 30 days or all time.
import { z } from 'zod';
import { StationIdSchema } from './ids';

/**
 * - packets: the station's confirmed packets (receptions decoded with the satellite's decoder)
 * - satellites: different satellites the station heard (receptions without CRC error)
 * - distance: the station's record distance to a satellite it heard, km
 * - satellite-packets: packets of the satellite (one per frame, however many stations heard it)
 */
export const LEADERBOARD_BOARDS = [
  'packets',
  'satellites',
  'distance',
  'satellite-packets',
] as const;
export type LeaderboardBoard = (typeof LEADERBOARD_BOARDS)[number];
/** 30d: today (UTC) and the 29 days before it; all: since the station or satellite began. */
export const LEADERBOARD_PERIODS = ['30d', 'all'] as const;
export type LeaderboardPeriod = (typeof LEADERBOARD_PERIODS)[number];
export const LEADERBOARD_DAYS = 30;
export const LEADERBOARD_DEFAULT_LIMIT = 10;
export const LEADERBOARD_MAX_LIMIT = 100;

const LIMIT_ERROR = `limit must be a whole number from 1 to ${LEADERBOARD_MAX_LIMIT}`;

export const LeaderboardQuerySchema = z.object({
  board: z.enum(LEADERBOARD_BOARDS, {
    error: `board must be one of ${LEADERBOARD_BOARDS.join(', ')}`,
  }),
  period: z
    .enum(LEADERBOARD_PERIODS, { error: `period must be one of ${LEADERBOARD_PERIODS.join(', ')}` })
    .default('30d'),
  limit: z.coerce
    .number({ error: LIMIT_ERROR })
    .int(LIMIT_ERROR)
    .min(1, LIMIT_ERROR)
    .max(LEADERBOARD_MAX_LIMIT, LIMIT_ERROR)
    .default(LEADERBOARD_DEFAULT_LIMIT),
});
export type LeaderboardQuery = z.infer<typeof LeaderboardQuerySchema>;

export const LeaderboardEntrySchema = z.object({
  /** 1-based; equal values share a rank (1, 2, 2, 4) */
  rank: z.number().int(),
  /** packets or satellites (whole numbers), or km for the distance board */
  value: z.number(),
  /** the station boards */
  station: z.object({ id: StationIdSchema, name: z.string(), userId: z.string() }).optional(),
  /** the satellite-packets board */
  satellite: z.object({ name: z.string(), displayName: z.string() }).optional(),
});
export type LeaderboardEntry = z.infer<typeof LeaderboardEntrySchema>;

export const LeaderboardResponseSchema = z.object({
  board: z.enum(LEADERBOARD_BOARDS),
  period: z.enum(LEADERBOARD_PERIODS),
  /** start of the window (00:00 UTC, 29 days before today), epoch ms; null for all time */
  from: z.number().int().nullable(),
  /** when the ranking was computed, epoch ms (answers are kept up to a minute) */
  computedAt: z.number().int(),
  entries: z.array(LeaderboardEntrySchema),
});
export type LeaderboardResponse = z.infer<typeof LeaderboardResponseSchema>;
