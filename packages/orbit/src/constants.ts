/** Earth radius used for coverage, ground distances and the eclipse horizon (SPEC.md section 9). */
export const EARTH_RADIUS_KM = 6378.137;

/** WGS-84 ellipsoid, used for geodetic latitude/altitude of satellites and observers. */
export const WGS84_EQUATORIAL_RADIUS_KM = 6378.137;
export const WGS84_FLATTENING = 1 / 298.257223563;
export const WGS84_ECCENTRICITY_SQUARED = WGS84_FLATTENING * (2 - WGS84_FLATTENING);

/** Earth's sidereal rotation rate (IERS), for the velocity of points fixed on the ground. */
export const EARTH_ROTATION_RAD_PER_S = 7.292115e-5;

export const SPEED_OF_LIGHT_KM_PER_S = 299792.458;
export const KM_PER_AU = 149597870.7;

export const DEG_PER_RAD = 180 / Math.PI;
export const RAD_PER_DEG = Math.PI / 180;

export const MS_PER_DAY = 86_400_000;
export const MS_PER_MINUTE = 60_000;
/** Julian date of the Unix epoch, 1970-01-01T00:00:00Z. */
export const JULIAN_DATE_UNIX_EPOCH = 2440587.5;
