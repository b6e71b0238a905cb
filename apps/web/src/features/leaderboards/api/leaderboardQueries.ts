import { useQuery } from '@tanstack/react-query';
import {
  LEADERBOARD_DEFAULT_LIMIT,
  LeaderboardResponseSchema,
  type LeaderboardBoard,
  type LeaderboardPeriod,
} from '@tinygs/contracts';
import { api } from '../../../lib/api';

/** The server keeps a ranking up to a minute: asking more often gains nothing. */
const STALE_MS = 60_000;

/** GET /v1/leaderboards: one board's top entries for one period. */
export function useLeaderboard(board: LeaderboardBoard, period: LeaderboardPeriod) {
  return useQuery({
    queryKey: ['leaderboard', board, period],
    queryFn: ({ signal }) =>
      api(
        `/v1/leaderboards?board=${board}&period=${period}&limit=${LEADERBOARD_DEFAULT_LIMIT}`,
        LeaderboardResponseSchema,
        { signal },
      ),
    staleTime: STALE_MS,
  });
}
