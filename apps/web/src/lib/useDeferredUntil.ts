import { useEffect, useState } from 'react';

// What may wait: on a slow screen the deferred parts still start after this long.
const DEFAULT_MAX_WAIT_MS = 3_000;
// An idle callback is not promised while the main thread stays busy; this caps the wait for one.
const IDLE_TIMEOUT_MS = 500;

function whenIdle(run: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(run, 1);
  return () => window.clearTimeout(id);
}

/**
 * False until `ready` has been true for one painted frame and the browser has had an idle moment
 * (or `maxWaitMs` since mount have passed), then true for good. Heavy parts of a screen (map,
 * photo carousel) wait on it so that they do not compete with the screen's first content.
 */
export function useDeferredUntil(ready: boolean, maxWaitMs = DEFAULT_MAX_WAIT_MS): boolean {
  const [released, setReleased] = useState(false);
  useEffect(() => {
    if (released) return;
    const timer = window.setTimeout(() => setReleased(true), maxWaitMs);
    return () => window.clearTimeout(timer);
  }, [released, maxWaitMs]);
  useEffect(() => {
    if (released || !ready) return;
    // Effects run after the commit; the idle callback after that frame has been painted.
    return whenIdle(() => setReleased(true));
  }, [released, ready]);
  return released;
}
