export { EARTH_RADIUS_KM, SPEED_OF_LIGHT_KM_PER_S } from './constants';
export type { TimeInput } from './time';
export { parseTle, tleChecksum, makeTleLines, TleFormatError } from './tle';
export type { Tle, TleLines, TleElements } from './tle';
export { MAX_TLE_NORAD_ID, parseNoradId } from './tle-fields';
export { ommToTleLines, type OmmRecord } from './omm';
export { subSatellitePoint, propagateInto, newInertialState, geodeticInto } from './propagate';
export type { GeodeticPoint, InertialState } from './propagate';
export { sunlight, sunlightOfState } from './sunlight';
export type { Sunlight } from './sunlight';
export { lookAngles, lookAnglesInto, observerFrame, dopplerShiftHz } from './look-angles';
export type { LookAngles, Observer, ObserverFrame } from './look-angles';
export { maxElevationWithin, nextPasses } from './passes';
export type { MaxElevation, Pass } from './passes';
export { splitAtAntimeridian, normalizeLngDeg } from './antimeridian';
export type { LatLng } from './antimeridian';
export { orbitPath } from './orbit-path';
export { footprintRadiusKm, groundDistanceKm, footprintCircle } from './ground';
export { maidenheadLocator } from './maidenhead';
export {
  planarRings,
  planarPolygons,
  type PolygonalGeometry,
  type Position as GeoPosition,
} from './planar-rings';
