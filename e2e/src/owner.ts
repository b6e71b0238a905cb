// What an owner's browser session holds, and the owner calls the tests make next to the browser to
// check what the server stored (the same calls the web app makes, with the same headers).
import type { Page } from 'playwright-core';
import { STORAGE_KEYS } from '@tinygs/contracts';

export interface Session {
  userId: string;
  sessionToken: string;
}

/** The session the web app stored after login (SPEC.md section 3, browser-stored items). */
export async function sessionOf(page: Page): Promise<Session> {
  const [userId, sessionToken] = (await page.evaluate(
    `[localStorage.getItem(${JSON.stringify(STORAGE_KEYS.userId)}),
      localStorage.getItem(${JSON.stringify(STORAGE_KEYS.sessionToken)})]`,
  )) as [string | null, string | null];
  if (!userId || !sessionToken) throw new Error('the browser holds no session');
  return { userId, sessionToken };
}

export function authHeaders(session: Session): Record<string, string> {
  return { userId: session.userId, sessionToken: session.sessionToken };
}

export async function getJson<T>(baseUrl: string, path: string, session?: Session): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, {
    headers: session ? authHeaders(session) : {},
  });
  if (!res.ok) throw new Error(`GET ${path} -> ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** A random six-digit code as a station shows it (never starting with 0, to keep it six digits). */
export function randomOtp(): string {
  return String(100000 + Math.floor(Math.random() * 900000));
}

/** Submits the creation request the NEW STATION dialog sends (SPEC.md section 7, POST /v1/otp). */
export async function submitCreation(
  baseUrl: string,
  session: Session,
  body: { otp: string; name: string; location: [number, number] },
): Promise<void> {
  const res = await fetch(`${baseUrl}/v1/otp?userId=${session.userId}`, {
    method: 'POST',
    headers: { ...authHeaders(session), 'content-type': 'application/json' },
    body: JSON.stringify({
      otp: Number(body.otp),
      station_name: body.name,
      location: body.location,
      admin_pw: 'e2e-admin-pw',
      tz: 'CET-1CEST,M3.5.0,M10.5.0/3',
    }),
  });
  if (!res.ok) throw new Error(`POST /v1/otp -> ${res.status} ${await res.text()}`);
}

export interface StationView {
  id: string;
  name: string;
  status: number;
  description?: string;
  antenna?: string | null;
  pictures?: { status: number; shortId?: string }[];
  autoTune?: number | null;
  modem_conf?: string;
  local_ip?: string;
  satnogsOptOut?: boolean;
}

/** Waits until `check` holds for the station as its owner reads it. */
export async function waitForStation(
  baseUrl: string,
  session: Session,
  id: string,
  check: (s: StationView) => boolean,
  timeoutMs = 20_000,
): Promise<StationView> {
  const deadline = Date.now() + timeoutMs;
  let last: StationView | string = 'no answer';
  for (;;) {
    const res = await fetch(`${baseUrl}/v1/station/${encodeURIComponent(id)}`, {
      headers: authHeaders(session),
    });
    if (res.ok) {
      const station = (await res.json()) as StationView;
      if (check(station)) return station;
      last = station;
    } else last = `${res.status}`;
    if (Date.now() > deadline) {
      throw new Error(`station ${id} never reached the expected state: ${JSON.stringify(last)}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

// A 64x48 PNG: small enough to upload instantly, a real image for the server's resizer.
export const PICTURE_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAEAAAAAwCAIAAAAuKetIAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAfElEQVRoge2SAQkAQBCDFsf+KYz1McbxAwPoWITTpG7gAqiv6C7EXVI3cAHUV3QX4i6pG7gA6iu6C3GX1A1cAPUV3YW4S+oGLoD6iu5C3CV1AxdAfUV3Ie6SuoELoL6iuxB3Sd3ABVBf0V2Iu6Ru4AKor+guxF1SN/DzgAePoCDEhz0qaQAAAABJRU5ErkJggg==',
  'base64',
);
