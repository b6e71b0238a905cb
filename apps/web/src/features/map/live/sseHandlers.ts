// Named events of /sse/events (SPEC.md section 7). Payloads are validated with the contracts
// schemas; a malformed event is dropped rather than breaking the live map.
import {
  NewPacketEventSchema,
  SSE_EVENTS,
  StationsEventSchema,
  type NewPacketEvent,
  type SseEventName,
  type StationListItem,
} from '@tinygs/contracts';

export interface LiveHandlers {
  onNewPacket: (event: NewPacketEvent) => void;
  onStations: (stations: StationListItem[]) => void;
}

function parseJson(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return undefined;
  }
}

/** One function per named event, taking the raw `data` text of the MessageEvent. */
export function createSseHandlers(
  handlers: LiveHandlers,
): Record<SseEventName, (data: string) => void> {
  return {
    [SSE_EVENTS.newPacket]: (data: string) => {
      const parsed = NewPacketEventSchema.safeParse(parseJson(data));
      if (parsed.success) handlers.onNewPacket(parsed.data);
      else console.warn('Dropped malformed new-packet event', parsed.error.issues);
    },
    [SSE_EVENTS.stations]: (data: string) => {
      const parsed = StationsEventSchema.safeParse(parseJson(data));
      if (parsed.success) handlers.onStations(parsed.data);
      else console.warn('Dropped malformed stations event', parsed.error.issues);
    },
  };
}
