// The three answers the world map starts from, asked for while / is still starting (boot.ts), so
// they are on the wire while the app and the map's code load instead of after. Nothing here parses
// them (that needs the contracts' schemas, which load with the map): useWorldData does.
import { api, apiText } from '../../../lib/api';

export interface WorldAnswers {
  satellites: Promise<unknown>;
  tles: Promise<string>;
  stations: Promise<unknown>;
}

/** Older than this, answers asked for early are not used: the map asks again. */
const EARLY_MAX_AGE_MS = 60_000;
const UNPARSED = { parse: (body: unknown) => body };

let early: { at: number; answers: WorldAnswers; left: Set<keyof WorldAnswers> } | null = null;

function ask(): WorldAnswers {
  return {
    satellites: api('/v1/satellitesWorldmap', UNPARSED),
    tles: apiText('/v1/tles.txt'),
    stations: api('/v1/stations', UNPARSED),
  };
}

/** Starts the requests now; the next map to open takes their answers. */
export function prefetchWorldData(): void {
  if (early && Date.now() - early.at < EARLY_MAX_AGE_MS) return;
  const answers = ask();
  // A failure is reported by the map that takes the answer, not as an unhandled rejection here.
  for (const p of Object.values(answers)) (p as Promise<unknown>).catch(() => undefined);
  early = { at: Date.now(), answers, left: new Set(['satellites', 'tles', 'stations']) };
}

/**
 * One answer asked for early, once, while it is fresh (the map's queries take theirs one by one);
 * null when there is none to take: the caller asks itself.
 */
export function takeEarlyAnswer<K extends keyof WorldAnswers>(key: K): WorldAnswers[K] | null {
  if (!early || !early.left.has(key) || Date.now() - early.at >= EARLY_MAX_AGE_MS) return null;
  early.left.delete(key);
  const answer = early.answers[key];
  if (early.left.size === 0) early = null;
  return answer;
}
