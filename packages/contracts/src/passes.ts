// Pass predictions (server addition): when the satellites of a station's band rise over it in
// the next 24 hours, and when one satellite rises over a place a visitor picks.
import { z } from 'zod';
import { BandSchema, LatLngTupleSchema } from './entities';
import { StationIdSchema } from './ids';
import { LATITUDE_RANGE_ERROR, LONGITUDE_RANGE_ERROR } from './rules';

export const PASSES_HOURS = 24;

/** Sunlight on the satellite at AOS, maximum elevation and LOS. */
export const PASS_ILLUMINATIONS = ['sunlit', 'eclipsed', 'partly'] as const;
export type PassIllumination = (typeof PASS_ILLUMINATIONS)[number];

export const PassSchema = z.object({
  satellite: z.string(),
  displayName: z.string(),
  norad: z.number().int().nullable(),
  /** MHz and mode of the satellite's default configuration */
  freq: z.number().nullable(),
  mode: z.string().nullable(),
  /** epoch ms; AOS is the window start for a pass already under way */
  aos: z.number().int(),
  los: z.number().int(),
  maxElevationAt: z.number().int(),
  /** degrees above the horizon */
  maxElevation: z.number(),
  /** degrees clockwise from true north */
  aosAzimuth: z.number(),
  maxElevationAzimuth: z.number(),
  losAzimuth: z.number(),
  illumination: z.enum(PASS_ILLUMINATIONS),
  /** the station's auto-tune is tuned to this satellite at the pass's highest point */
  autoTune: z.boolean(),
});
export type Pass = z.infer<typeof PassSchema>;

// GET /v1/station/{id}/passes
export const StationPassesResponseSchema = z.object({
  stationId: StationIdSchema,
  /** the band whose satellites are listed: the auto-tune band, else the band of the station's satellite */
  band: BandSchema.nullable(),
  /** whether auto-tune chooses the station's satellite (a band is set) */
  autoTune: z.boolean(),
  location: LatLngTupleSchema,
  from: z.number().int(),
  to: z.number().int(),
  /** in AOS order */
  passes: z.array(PassSchema),
});
export type StationPasses = z.infer<typeof StationPassesResponseSchema>;

const coordinate = (min: number, max: number, error: string) =>
  z.number({ error }).min(min, error).max(max, error);

// GET /v1/satellite/{name}/passes?lat=&lng=
export const SatellitePassesQuerySchema = z.object({
  lat: z
    .string({ error: LATITUDE_RANGE_ERROR })
    .min(1, { error: LATITUDE_RANGE_ERROR, abort: true })
    .max(30, { error: LATITUDE_RANGE_ERROR, abort: true })
    .transform(Number)
    .pipe(coordinate(-90, 90, LATITUDE_RANGE_ERROR)),
  lng: z
    .string({ error: LONGITUDE_RANGE_ERROR })
    .min(1, { error: LONGITUDE_RANGE_ERROR, abort: true })
    .max(30, { error: LONGITUDE_RANGE_ERROR, abort: true })
    .transform(Number)
    .pipe(coordinate(-180, 180, LONGITUDE_RANGE_ERROR)),
});
export const SatellitePassesResponseSchema = z.object({
  satellite: z.string(),
  /** the place the passes are for, rounded to 0.01 degrees */
  location: LatLngTupleSchema,
  from: z.number().int(),
  to: z.number().int(),
  passes: z.array(PassSchema),
});
export type SatellitePasses = z.infer<typeof SatellitePassesResponseSchema>;
