// One station's reads and who sees what. Its public page (approved pictures, no owner-only fields)
// is kept built per station until an event names the station (every change the ingest or an owner
// makes announces it; others show within STATION_PAGE_TTL_MS). Its owner, signed in, gets a view
// with the owner-only fields and pending pictures, built for each request and never kept. Its
// 30-day statistics are kept a minute per station.
import { STATION_STATS_DAYS, type StationStatistics } from '@tinygs/contracts';
import type { AppContext } from '../../context';
import { notFound } from '../../http/errors';
import { PICTURE_STATUS, toPicture } from '../../repositories/pictures';
import { stationFramesSince } from '../../repositories/public/packet-reads';
import {
  findStation,
  stationPage,
  stationPages,
  type StationPageRead,
} from '../../repositories/public/station-reads';
import { DocumentCache } from '../document-cache';
import { FastBody } from '../http-cache';
import { toStationFull, toStationStatistics } from './mapper';

const DAY_MS = 86_400_000;
/** A busy station hears thousands of frames a day: its statistics hold the newest this many. */
export const STATION_STATS_MAX_FRAMES = 10_000;
/** Statistics are kept this long per station, for at most STATS_CACHE_STATIONS stations. */
const STATS_CACHE_MS = 60_000;
const STATS_CACHE_STATIONS = 1_000;
/** Pages past their TTL read again in one statement. */
const STATION_PAGES_PER_REFRESH = 100;
/** Public station pages kept built (about 3 kB each with both encodings). */
const STATION_PAGES_KEPT = 20_000;
/**
 * Every change the ingest or an owner makes to a station announces it; what changes without an
 * event (a picture approved by the admin CLI of a server not sharing Redis) shows within this.
 */
export const STATION_PAGE_TTL_MS = 60_000;

/** A station's public page, and whose station it is (to recognise its owner). */
interface PublicStationPage {
  userId: string;
  doc: FastBody;
}

/** What a caller is sent: the shared public page, or the owner's own view (never kept). */
export type StationView = { owner: false; doc: FastBody } | { owner: true; text: string };

export function stationService(ctx: AppContext) {
  const db = ctx.database.db;

  const publicPages: DocumentCache<string, PublicStationPage> = new DocumentCache(
    STATION_PAGE_TTL_MS,
    STATION_PAGES_KEPT,
    {
      // Pages past their minute are read again a batch at a time: one statement for many.
      refreshMany: {
        size: STATION_PAGES_PER_REFRESH,
        build: async (ids) => {
          const pages = new Map<string, PublicStationPage>();
          for (const [id, read] of await stationPages(ctx.database, ids))
            pages.set(id, publicPage(id, read));
          return pages;
        },
      },
    },
  );
  ctx.events.subscribe('stations-changed', ({ stationIds }) => {
    for (const id of stationIds) publicPages.invalidate(id);
  });

  /** The page as `isOwner` may see it: pending pictures and owner-only fields for the owner. */
  async function buildPage(id: string, isOwner: boolean) {
    const read = await stationPage(ctx.database, id);
    if (!read) throw notFound(`Unknown station: ${id}`);
    return pageText(read, isOwner);
  }

  function pageText({ station, pictures: all }: StationPageRead, isOwner: boolean) {
    const pictures = all
      .filter(
        (p) =>
          p.status === PICTURE_STATUS.approved || (isOwner && p.status === PICTURE_STATUS.pending),
      )
      .map(toPicture);
    return {
      userId: station.userId,
      text: JSON.stringify(toStationFull(station, isOwner, pictures)),
    };
  }

  /**
   * The public page from what was read: a station that has not changed since the kept page (a
   * refresh past the TTL) keeps that document, its ETag and the compressions already made of it.
   */
  function publicPage(id: string, read: StationPageRead): PublicStationPage {
    const { userId, text } = pageText(read, false);
    const kept = publicPages.latest(id);
    const doc = FastBody.of(text, kept?.doc);
    return doc === kept?.doc ? kept : { userId, doc };
  }

  async function buildPublicPage(id: string): Promise<PublicStationPage> {
    const read = await stationPage(ctx.database, id);
    if (!read) throw notFound(`Unknown station: ${id}`);
    return publicPage(id, read);
  }

  const statsCache = new Map<string, { at: number; body: StationStatistics }>();

  return {
    /**
     * The kept public page when no event dropped it and `claimedUserId` (the userId header) does
     * not name the station's owner: what `view` would answer, without awaiting anything. Undefined
     * otherwise (then ask `view`).
     */
    keptPublicPage(id: string, claimedUserId: unknown): FastBody | undefined {
      // Past its TTL it is still answered while one refresh runs behind it (as `view` would).
      const page = publicPages.peek(id, () => buildPublicPage(id));
      return page && claimedUserId !== page.userId ? page.doc : undefined;
    },

    /**
     * The station as this caller may see it. `claimedUserId` is the userId header; `signedIn`
     * resolves the session, asked only when the claim names the station's owner.
     */
    async view(
      id: string,
      claimedUserId: unknown,
      signedIn: () => Promise<string | undefined>,
    ): Promise<StationView> {
      const page = await publicPages.get(id, () => buildPublicPage(id));
      if (claimedUserId !== page.userId || (await signedIn()) !== page.userId)
        return { owner: false, doc: page.doc };
      return { owner: true, text: (await buildPage(id, true)).text };
    },

    /** Frames per UTC day over the last STATION_STATS_DAYS days, newest frames first. */
    async statistics(id: string): Promise<StationStatistics> {
      const cached = statsCache.get(id);
      if (cached && cached.at > Date.now() - STATS_CACHE_MS) return cached.body;
      if (!(await findStation(db, id))) throw notFound(`Unknown station: ${id}`);
      const since = Math.floor(Date.now() / DAY_MS) * DAY_MS - (STATION_STATS_DAYS - 1) * DAY_MS;
      const body = toStationStatistics(
        await stationFramesSince(db, id, since, STATION_STATS_MAX_FRAMES),
      );
      // Oldest entry out first once full (a Map iterates in insertion order).
      statsCache.delete(id);
      if (statsCache.size >= STATS_CACHE_STATIONS) {
        const oldest = statsCache.keys().next().value;
        if (oldest !== undefined) statsCache.delete(oldest);
      }
      statsCache.set(id, { at: Date.now(), body });
      return body;
    },
  };
}
