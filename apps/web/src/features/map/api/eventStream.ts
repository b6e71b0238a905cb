// The browser's EventSource retries by itself while the connection is merely interrupted
// (readyState CONNECTING); after an HTTP error or a proxy closing it for good it gives up
// (readyState CLOSED), so we reopen it ourselves with a growing delay. A stream that missed a
// station-list event is reopened too: every new stream starts with the whole list, except the
// first when the caller names the list it holds (`known`), which a stream opened by us again never
// does (the list held by then is no longer the one named).
import { SSE_EVENTS } from '@tinygs/contracts';
import { createSseHandlers, type LiveHandlers } from './sseHandlers';

export const SSE_URL = '/sse/events?stations=delta';
const RECONNECT_MIN_MS = 1_000;
const RECONNECT_MAX_MS = 30_000;

export function connectLiveEvents(
  handlers: LiveHandlers,
  url = SSE_URL,
  /** digest of the station list the caller holds, for the first stream only */
  known?: string,
): () => void {
  if (typeof EventSource === 'undefined') return () => undefined;
  const byName = createSseHandlers(handlers);
  let source: EventSource | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let delayMs = RECONNECT_MIN_MS;
  let stopped = false;

  // At least RECONNECT_MIN_MS apart, growing while reopened streams keep failing.
  const reopenLater = (es: EventSource) => {
    es.close();
    retryTimer = setTimeout(open, delayMs);
    delayMs = Math.min(delayMs * 2, RECONNECT_MAX_MS);
  };

  let first = true;
  function open() {
    const es = new EventSource(first && known ? `${url}&known=${known}` : url);
    first = false;
    source = es;
    es.addEventListener(SSE_EVENTS.newPacket, (e) =>
      byName[SSE_EVENTS.newPacket]((e as MessageEvent<string>).data),
    );
    es.addEventListener(SSE_EVENTS.stationsDelta, (e) => {
      void byName[SSE_EVENTS.stationsDelta]((e as MessageEvent<string>).data).then((outcome) => {
        // Only the stream that is still open is replaced, and only once.
        if (outcome === 'resync' && source === es && !stopped) {
          source = null;
          reopenLater(es);
        }
      });
    });
    es.onopen = () => {
      delayMs = RECONNECT_MIN_MS;
    };
    es.onerror = () => {
      if (es.readyState !== EventSource.CLOSED || stopped || source !== es) return;
      reopenLater(es);
    };
  }
  open();

  return () => {
    stopped = true;
    clearTimeout(retryTimer);
    source?.close();
  };
}
