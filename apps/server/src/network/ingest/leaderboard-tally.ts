// What one write batch adds to the leaderboard aggregates (repositories/leaderboards.ts): per
// station and UTC day its confirmed packets and farthest reception, per station and satellite when
// it was first and last heard, per satellite and day its new packets. Receptions with a CRC error
// count for none of them, as for the stations' and satellites' own counters.
import type {
  LeaderboardTallies,
  SatelliteDayTally,
  StationDayTally,
  StationSatelliteTally,
} from '../../repositories/leaderboards';

const byKey = <T>(rows: Map<string, T>, sorted: boolean): T[] =>
  sorted
    ? [...rows].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v)
    : [...rows.values()];

export class LeaderboardTally {
  private readonly stationDays = new Map<string, StationDayTally>();
  private readonly stationSatellites = new Map<string, StationSatelliteTally>();
  private readonly satelliteDays = new Map<string, SatelliteDayTally>();

  /**
   * One stored reception without CRC error, at `at` on UTC `day` (YYYY-MM-DD). `decoded`: a
   * confirmed packet for the station; `createdPacket`: the reception made a new packet of its
   * satellite.
   */
  add(
    stationId: string,
    satellite: string,
    day: string,
    at: number,
    distanceKm: number | null | undefined,
    decoded: boolean,
    createdPacket: boolean,
  ): void {
    const dayKey = `${day}\n${stationId}`;
    let d = this.stationDays.get(dayKey);
    if (!d) {
      d = { day, stationId, confirmedPackets: 0, recordDistanceKm: null };
      this.stationDays.set(dayKey, d);
    }
    if (decoded) d.confirmedPackets += 1;
    if (
      typeof distanceKm === 'number' &&
      (d.recordDistanceKm === null || distanceKm > d.recordDistanceKm)
    )
      d.recordDistanceKm = distanceKm;

    const pairKey = `${stationId}\n${satellite}`;
    const pair = this.stationSatellites.get(pairKey);
    if (!pair)
      this.stationSatellites.set(pairKey, { stationId, satellite, firstHeard: at, lastHeard: at });
    else {
      pair.firstHeard = Math.min(pair.firstHeard, at);
      pair.lastHeard = Math.max(pair.lastHeard, at);
    }

    if (!createdPacket) return;
    const satKey = `${day}\n${satellite}`;
    const s = this.satelliteDays.get(satKey);
    if (s) s.packets += 1;
    else this.satelliteDays.set(satKey, { day, satellite, packets: 1 });
  }

  /** `sorted`: in key order, so that instances sharing the database lock rows in one order. */
  rows(sorted: boolean): LeaderboardTallies {
    return {
      stationDays: byKey(this.stationDays, sorted),
      stationSatellites: byKey(this.stationSatellites, sorted),
      satelliteDays: byKey(this.satelliteDays, sorted),
    };
  }
}
