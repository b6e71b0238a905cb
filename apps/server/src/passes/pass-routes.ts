// GET /v1/station/{id}/passes and GET /v1/satellite/{name}/passes?lat=&lng=: the next 24 hours of
// passes (passes/service.ts).
import {
  ErrorBodySchema,
  SatelliteNameParamsSchema,
  SatellitePassesQuerySchema,
  SatellitePassesResponseSchema,
  StationIdParamsSchema,
  StationPassesResponseSchema,
} from '@tinygs/contracts';
import { notFound } from '../http/errors';
import type { RouteModule } from '../http/route-module';
import { PassPredictor } from './service';

const errors = { 400: ErrorBodySchema, 404: ErrorBodySchema, 503: ErrorBodySchema } as const;

export const passRoutes: RouteModule = async (app, ctx) => {
  const predictor = new PassPredictor(ctx);

  app.get(
    '/v1/station/:id/passes',
    {
      schema: {
        tags: ['public'],
        summary:
          'Passes of the satellites in the station’s band over the next 24 hours (AOS, LOS, highest point, azimuths, sunlight), marking those auto-tune is tuned to',
        params: StationIdParamsSchema,
        response: { 200: StationPassesResponseSchema, ...errors },
      },
    },
    async (req) => {
      const passes = await predictor.forStation(req.params.id);
      if (!passes) throw notFound(`Unknown station: ${req.params.id}`);
      return passes;
    },
  );

  app.get(
    '/v1/satellite/:name/passes',
    {
      schema: {
        tags: ['public'],
        summary: 'Passes of one satellite over a place (lat, lng in degrees) in the next 24 hours',
        params: SatelliteNameParamsSchema,
        querystring: SatellitePassesQuerySchema,
        response: { 200: SatellitePassesResponseSchema, ...errors },
      },
    },
    async (req) => {
      const { lat, lng } = req.query;
      const passes = await predictor.forSatellite(req.params.name, lat, lng);
      if (!passes) throw notFound(`No element set for satellite: ${req.params.name}`);
      return passes;
    },
  );
};
