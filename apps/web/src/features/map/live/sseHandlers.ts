// Named events of /sse/events (SPEC.md section 7). A new-packet payload is small and validated
// here with the contracts schema; a malformed one is dropped rather than breaking the live map.
// The stations payload is the whole list and is handed on as text, to be parsed off the main
// thread (see stationDiff.ts).
import {
  NewPacketEventSchema,
  SSE_EVENTS,
  type NewPacketEvent,
  type SseEventName,
} from '@tinygs/contracts';

export interface LiveHandlers {
  onNewPacket: (event: NewPacketEvent) => void;
  /** raw `data` of a `stations` event */
  onStationsText: (data: string) => void;
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
    [SSE_EVENTS.stations]: (data: string) => handlers.onStationsText(data),
  };
}
