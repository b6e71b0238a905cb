// Screens loaded on demand (SPEC.md section 9): a script chunk that has not arrived after 120 s
// is a loading error, which the route's error boundary shows, instead of a spinner forever.
import { CHUNK_LOAD_TIMEOUT_MS } from '@tinygs/contracts';
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export class ChunkLoadTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`A part of the page did not load within ${Math.round(timeoutMs / 1000)} s`);
    this.name = 'ChunkLoadTimeoutError';
  }
}

/** The import, or a ChunkLoadTimeoutError once `timeoutMs` has passed without it. */
export function withChunkTimeout<T>(
  load: Promise<T>,
  timeoutMs = CHUNK_LOAD_TIMEOUT_MS,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new ChunkLoadTimeoutError(timeoutMs)), timeoutMs);
  });
  return Promise.race([load, timeout]).finally(() => clearTimeout(timer));
}

/** React.lazy with the chunk-load time-out. */
export function lazyChunk<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
): LazyExoticComponent<ComponentType<P>> {
  return lazy(() => withChunkTimeout(load()));
}
