// Named events of /sse/events (SPEC.md section 7) that the live map uses. A new-packet payload is
// small and checked here (firstVisitChecks: as the contracts schema does, without zod); a
// malformed one is dropped rather than breaking the live map. The map asks for the delta form of
// the station list (`?stations=delta`); those payloads can hold the whole list and are handed on
// as text, to be parsed off the main thread (see stationList.ts).
import { SSE_EVENTS, type NewPacketEvent } from '@tinygs/contracts';
import { checkNewPacketEvent } from '../../../lib/firstVisitChecks';

export type StationsOutcome = 'ok' | 'resync';

export interface LiveHandlers {
  onNewPacket: (event: NewPacketEvent) => void;
  /** raw `data` of a `stations-delta` event; `resync` when the stream missed one */
  onStationsDelta: (data: string) => Promise<StationsOutcome>;
}

function parseJson(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return undefined;
  }
}

/** One function per named event, taking the raw `data` text of the MessageEvent. */
export function createSseHandlers(handlers: LiveHandlers) {
  return {
    [SSE_EVENTS.newPacket]: (data: string): void => {
      const event = checkNewPacketEvent(parseJson(data));
      if (event) handlers.onNewPacket(event);
      else console.warn('Dropped malformed new-packet event', data.slice(0, 200));
    },
    [SSE_EVENTS.stationsDelta]: (data: string): Promise<StationsOutcome> =>
      handlers.onStationsDelta(data),
  };
}
