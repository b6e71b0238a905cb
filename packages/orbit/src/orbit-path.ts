import { AntimeridianPolylines, type LatLng } from './antimeridian';
import { MS_PER_MINUTE } from './constants';
import { geodeticInto, newInertialState, propagateInto, type GeodeticPoint } from './propagate';
import { toEpochMs, type TimeInput } from './time';
import type { Tle } from './tle';

const state = newInertialState();
const point: GeodeticPoint = { lat: 0, lng: 0, alt: 0 };

/**
 * Ground track from `start` for `minutes`, one point every `stepMinutes` (both ends included, so
 * 190 minutes in 1-minute steps is 191 propagated points), as polylines split at the antimeridian.
 * Each split adds an interpolated point on the map edge at the end of one polyline and the start of
 * the next. Times where propagation fails leave a gap (a new polyline).
 */
export function orbitPath(tle: Tle, start: TimeInput, minutes = 190, stepMinutes = 1): LatLng[][] {
  const startMs = toEpochMs(start);
  const steps = Math.floor(minutes / stepMinutes + 1e-9);
  const builder = new AntimeridianPolylines();
  for (let i = 0; i <= steps; i++) {
    if (propagateInto(tle, startMs + i * stepMinutes * MS_PER_MINUTE, state)) {
      geodeticInto(state, point);
      builder.add(point.lat, point.lng);
    } else {
      builder.breakLine();
    }
  }
  return builder.finish();
}
