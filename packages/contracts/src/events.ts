// Server-sent events of /sse/events (SPEC.md section 7).
import { z } from 'zod';
import { SatPosSchema, StationListItemSchema } from './entities';
import { StationIdSchema } from './ids';

export const SSE_EVENTS = { newPacket: 'new-packet', stations: 'stations' } as const;
export type SseEventName = (typeof SSE_EVENTS)[keyof typeof SSE_EVENTS];

export const NewPacketEventSchema = z.object({
  /** the satellite's display name (what the ticker shows) */
  satellite: z.string(),
  /** the satellite's name (key of /v1/satellite/{name}) */
  satelliteName: z.string(),
  packetId: z.string(),
  satPos: SatPosSchema,
  /** ids `{name}@{userId}` of the receiving stations */
  stations: z.array(StationIdSchema),
});
export type NewPacketEvent = z.infer<typeof NewPacketEventSchema>;

/** The full station list, as GET /v1/stations returns it. */
export const StationsEventSchema = z.array(StationListItemSchema);
export type StationsEvent = z.infer<typeof StationsEventSchema>;
