// Countdowns that must survive a reload (SPEC.md section 4: the login wait and the e-mail cool-down)
// are stored as an absolute expiry time (epoch ms), never as a remaining count.
import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * The stored expiry, or null when it is missing, not a number, already past, or further ahead than
 * `maxAheadMs` (a tampered or clock-skewed value must not lock a button for days).
 */
export function readStoredExpiry(key: string, maxAheadMs: number, now = Date.now()): number | null {
  let raw: string | null;
  try {
    raw = window.localStorage.getItem(key);
  } catch {
    return null;
  }
  if (raw === null || raw.trim() === '') return null;
  const expiry = Number(raw);
  if (!Number.isFinite(expiry) || expiry <= now || expiry - now > maxAheadMs) return null;
  return expiry;
}

export function writeStoredExpiry(key: string, expiry: number): void {
  try {
    window.localStorage.setItem(key, String(expiry));
  } catch {
    // Storage disabled: the countdown still runs for this page.
  }
}

export interface StoredCountdownOptions {
  key: string;
  /** Stored expiries further ahead than this are ignored. */
  maxAheadMs: number;
  /**
   * Delay before the expiry reaches storage (0 = at once). A pending write is flushed when the page
   * is hidden or the component unmounts, so a reload still finds it.
   */
  writeDelayMs?: number;
}

export interface StoredCountdown {
  /** Whole seconds left, 0 when no countdown runs. */
  secondsLeft: number;
  start(durationMs: number): void;
}

export function useStoredCountdown({
  key,
  maxAheadMs,
  writeDelayMs = 0,
}: StoredCountdownOptions): StoredCountdown {
  const [clock, setClock] = useState(() => {
    const now = Date.now();
    return { now, expiry: readStoredExpiry(key, maxAheadMs, now) };
  });
  const pendingWrite = useRef<{ expiry: number; timer: ReturnType<typeof setTimeout> } | null>(
    null,
  );

  const flush = useCallback(() => {
    const pending = pendingWrite.current;
    if (!pending) return;
    clearTimeout(pending.timer);
    pendingWrite.current = null;
    writeStoredExpiry(key, pending.expiry);
  }, [key]);

  useEffect(() => {
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, [flush]);

  const expiry = clock.expiry;
  useEffect(() => {
    if (expiry === null) return;
    const timer = setInterval(() => {
      const now = Date.now();
      setClock({ now, expiry: now >= expiry ? null : expiry });
    }, 1000);
    return () => clearInterval(timer);
  }, [expiry]);

  const start = useCallback(
    (durationMs: number) => {
      const now = Date.now();
      const next = now + durationMs;
      setClock({ now, expiry: next });
      if (pendingWrite.current) clearTimeout(pendingWrite.current.timer);
      pendingWrite.current = null;
      if (writeDelayMs <= 0) {
        writeStoredExpiry(key, next);
        return;
      }
      pendingWrite.current = {
        expiry: next,
        timer: setTimeout(() => {
          pendingWrite.current = null;
          writeStoredExpiry(key, next);
        }, writeDelayMs),
      };
    },
    [key, writeDelayMs],
  );

  const secondsLeft =
    clock.expiry === null ? 0 : Math.max(0, Math.ceil((clock.expiry - clock.now) / 1000));
  return { secondsLeft, start };
}
