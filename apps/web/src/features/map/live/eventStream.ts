// The browser's EventSource retries by itself while the connection is merely interrupted
// (readyState CONNECTING); after an HTTP error or a proxy closing it for good it gives up
// (readyState CLOSED), so we reopen it ourselves with a growing delay.
import type { SseEventName } from '@tinygs/contracts';
import { createSseHandlers, type LiveHandlers } from './sseHandlers';

export const SSE_URL = '/sse/events';
const RECONNECT_MIN_MS = 1_000;
const RECONNECT_MAX_MS = 30_000;

export function connectLiveEvents(handlers: LiveHandlers, url = SSE_URL): () => void {
  if (typeof EventSource === 'undefined') return () => undefined;
  const byName = createSseHandlers(handlers);
  let source: EventSource | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let delayMs = RECONNECT_MIN_MS;
  let stopped = false;

  const open = () => {
    const es = new EventSource(url);
    source = es;
    for (const name of Object.keys(byName) as SseEventName[]) {
      es.addEventListener(name, (e) => byName[name]((e as MessageEvent<string>).data));
    }
    es.onopen = () => {
      delayMs = RECONNECT_MIN_MS;
    };
    es.onerror = () => {
      if (es.readyState !== EventSource.CLOSED || stopped) return;
      es.close();
      retryTimer = setTimeout(open, delayMs);
      delayMs = Math.min(delayMs * 2, RECONNECT_MAX_MS);
    };
  };
  open();

  return () => {
    stopped = true;
    clearTimeout(retryTimer);
    source?.close();
  };
}
