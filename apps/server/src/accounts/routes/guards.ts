// Authorisation runs before input validation (rate limit -> auth -> validate -> handler), so an
// anonymous caller learns nothing about what a valid body would be and always gets 401.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseStationId } from '@tinygs/contracts';
import type { AppContext } from '../../context';
import type { StationRow } from '../../db/schema';
import { requireUser } from '../../http/auth';
import { forbidden, notFound } from '../../http/errors';
import { findStationRow } from '../../repositories/stations';

type Hook = (req: FastifyRequest, reply: FastifyReply) => Promise<void>;

function rawField(source: unknown, name: string): string | undefined {
  if (typeof source !== 'object' || source === null) return undefined;
  const value = (source as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}

/** 401 without a session, 403 when the user id named in `part.field` is someone else's. */
export function ownUserFirst(ctx: AppContext, part: 'query' | 'params', field: string): Hook {
  return async (req) => {
    const user = await requireUser(ctx, req);
    const named = rawField(part === 'query' ? req.query : req.params, field);
    if (named !== undefined && named !== user.userId) throw forbidden();
  };
}

/** 401 without a session, 404 for an unknown station, 403 for someone else's station. */
export function ownStationFirst(ctx: AppContext): Hook {
  return async (req) => {
    const user = await requireUser(ctx, req);
    const id = rawField(req.params, 'id');
    if (id === undefined || !parseStationId(id)) return; // validation answers 400
    const station = await findStationRow(ctx.database.db, id);
    if (!station) throw notFound('Station not found');
    if (station.userId !== user.userId) throw forbidden();
  };
}

/** The station for an owner-only handler: 401, 404 or 403 as the hook above, after validation. */
export async function ownedStation(
  ctx: AppContext,
  req: FastifyRequest,
  id: string,
): Promise<StationRow> {
  const user = await requireUser(ctx, req);
  const station = await findStationRow(ctx.database.db, id);
  if (!station) throw notFound('Station not found');
  if (station.userId !== user.userId) throw forbidden();
  return station;
}
