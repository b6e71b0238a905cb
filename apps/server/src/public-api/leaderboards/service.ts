// The leaderboards: a ranking is computed from the leaderboard aggregates (aggregates.ts) at its
// longest (LEADERBOARD_MAX_LIMIT) and kept for a minute: a busy network does not rebuild it on
// every packet, and past the minute the kept one is served while one rebuild runs behind it. Each
// limit's document is cut from the same ranking and kept with it, serialised and compressed.
import {
  LEADERBOARD_MAX_LIMIT,
  type LeaderboardBoard,
  type LeaderboardEntry,
  type LeaderboardPeriod,
  type LeaderboardResponse,
} from '@tinygs/contracts';
import type { AppContext } from '../../context';
import type { Db } from '../../db/connect';
import { DocumentCache } from '../document-cache';
import { PreparedBody } from '../http-cache';
import { LeaderboardReader } from './aggregates';

/** How long a ranking is kept before it is read again. */
export const LEADERBOARD_CACHE_MS = 60_000;

interface Ranking {
  response: Omit<LeaderboardResponse, 'entries'>;
  entries: LeaderboardEntry[];
  /** one document per limit asked for (at most LEADERBOARD_MAX_LIMIT) */
  bodies: Map<number, PreparedBody>;
}

/** A ranking computed now, with nothing kept from earlier ones. */
export function readLeaderboard(
  db: Db,
  board: LeaderboardBoard,
  period: LeaderboardPeriod,
  limit: number,
  now = Date.now(),
): Promise<LeaderboardResponse> {
  return new LeaderboardReader(db).read(board, period, limit, now);
}

export function leaderboardService(ctx: AppContext) {
  const rankings = new DocumentCache<string, Ranking>(LEADERBOARD_CACHE_MS, 8);
  const reader = new LeaderboardReader(ctx.database);

  return {
    /** The top `limit` of a board and period, ready to send. */
    async document(
      board: LeaderboardBoard,
      period: LeaderboardPeriod,
      limit: number,
    ): Promise<PreparedBody> {
      const ranking = await rankings.get(`${board}\n${period}`, async () => {
        const { entries, ...response } = await reader.read(board, period, LEADERBOARD_MAX_LIMIT);
        return { response, entries, bodies: new Map() };
      });
      let body = ranking.bodies.get(limit);
      if (!body) {
        body = PreparedBody.of(
          JSON.stringify({ ...ranking.response, entries: ranking.entries.slice(0, limit) }),
        );
        ranking.bodies.set(limit, body);
      }
      return body;
    },
  };
}
