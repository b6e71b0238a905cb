// The login session lives in localStorage (SPEC.md section 3, browser-stored items) so that every
// tab shares it; components subscribe through useSession and re-render when it changes anywhere.
import { useMemo, useSyncExternalStore } from 'react';
import { STORAGE_KEYS } from '@tinygs/contracts';

export interface Session {
  userId: string;
  sessionToken: string;
}

const CHANGE_EVENT = 'tinygs-session-change';

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    // Storage can be disabled (private mode, policies): behave as logged out.
    return null;
  }
}

export function storedUserId(): string | null {
  return read(STORAGE_KEYS.userId) || null;
}

/** Both ids, or null when either is missing. */
export function getSession(): Session | null {
  const userId = read(STORAGE_KEYS.userId);
  const sessionToken = read(STORAGE_KEYS.sessionToken);
  return userId && sessionToken ? { userId, sessionToken } : null;
}

export function saveSession(session: Session): void {
  window.localStorage.setItem(STORAGE_KEYS.userId, session.userId);
  window.localStorage.setItem(STORAGE_KEYS.sessionToken, session.sessionToken);
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

export function clearSession(): void {
  window.localStorage.removeItem(STORAGE_KEYS.userId);
  window.localStorage.removeItem(STORAGE_KEYS.sessionToken);
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('storage', onChange);
  window.addEventListener(CHANGE_EVENT, onChange);
  return () => {
    window.removeEventListener('storage', onChange);
    window.removeEventListener(CHANGE_EVENT, onChange);
  };
}

// Snapshots must be stable between calls, so the hook works on the raw strings.
function snapshot(): string {
  return `${read(STORAGE_KEYS.userId) ?? ''}\n${read(STORAGE_KEYS.sessionToken) ?? ''}`;
}

export function useSession(): Session | null {
  const raw = useSyncExternalStore(subscribe, snapshot, () => '\n');
  return useMemo(() => {
    const [userId = '', sessionToken = ''] = raw.split('\n');
    return userId && sessionToken ? { userId, sessionToken } : null;
  }, [raw]);
}

/** The stored user id alone decides intro versus welcome-back on Home (SPEC.md section 2). */
export function useStoredUserId(): string | null {
  const raw = useSyncExternalStore(subscribe, snapshot, () => '\n');
  return raw.split('\n')[0] || null;
}
