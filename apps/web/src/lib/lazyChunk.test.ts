import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChunkLoadTimeoutError, withChunkTimeout } from './lazyChunk';

describe('chunk-load time-out (SPEC.md section 9)', () => {
  afterEach(() => vi.useRealTimers());

  it('fails a chunk that has not arrived after 120 s', async () => {
    vi.useFakeTimers();
    const outcome = withChunkTimeout(new Promise<never>(() => undefined)).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(119_999);
    let settled = false;
    void outcome.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toBeInstanceOf(ChunkLoadTimeoutError);
  });

  it('hands over a chunk that arrives in time', async () => {
    vi.useFakeTimers();
    const chunk = { default: 'screen' };
    const outcome = withChunkTimeout(
      new Promise((resolve) => setTimeout(() => resolve(chunk), 90_000)),
    );
    await vi.advanceTimersByTimeAsync(90_000);
    expect(await outcome).toBe(chunk);
  });
});
