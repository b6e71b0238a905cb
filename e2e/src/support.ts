// Shared steps of the browser tests: ids of real rows to open, the accessibility scan, screenshots.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import axe from 'axe-core';
import type { Locator, Page } from 'playwright-core';
import { REPO_ROOT } from './server-process';

export interface AnnouncedPacket {
  packetId: string;
  stations: string[];
}

/** The next packet the server announces on /sse/events, as the live map receives it. */
export async function nextAnnouncedPacket(
  baseUrl: string,
  timeoutMs = 90_000,
): Promise<AnnouncedPacket> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const res = await fetch(`${baseUrl}/sse/events`, { signal: controller.signal });
    if (!res.body) throw new Error('no event stream');
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of res.body) {
      buffer += decoder.decode(chunk as Uint8Array, { stream: true });
      const match = /event: new-packet\ndata: (.*)\n/.exec(buffer);
      if (match?.[1]) return JSON.parse(match[1]) as AnnouncedPacket;
    }
    throw new Error('event stream ended');
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

/** A packet id as the packet list shows it: /v2/packets, or the next announced one. */
export async function somePacketId(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/v2/packets`);
  if (res.ok) {
    const body = (await res.json()) as unknown;
    const list = Array.isArray(body) ? body : (body as { packets?: unknown[] }).packets;
    const first = list?.[0] as { id?: string; _id?: string } | undefined;
    const id = first?.id ?? first?._id;
    if (id) return id;
  }
  return (await nextAnnouncedPacket(baseUrl)).packetId;
}

/** A station id: /v1/stations, or a receiving station of the next announced packet. */
export async function someStationId(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/v1/stations`);
  if (res.ok) {
    const list = (await res.json()) as { name: string; userId: string }[];
    const first = Array.isArray(list) ? list[0] : undefined;
    if (first) return `${first.name}@${first.userId}`;
  }
  const announced = await nextAnnouncedPacket(baseUrl);
  const id = announced.stations[0];
  if (!id) throw new Error('announced packet without stations');
  return id;
}

/** Runs the operator CLI (`npm run cli -- ... --json`) against the server's data; its JSON answer. */
export function cli<T>(dataDir: string, baseUrl: string, args: string[]): T {
  const out = execFileSync('npm', ['run', '--silent', 'cli', '--', ...args, '--json'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PUBLIC_URL: baseUrl,
      LOG_LEVEL: 'silent',
      SIMULATED_STATIONS: '0',
    },
  });
  return JSON.parse(out.slice(out.indexOf('{'))) as T;
}

export const DEMO_EMAIL = 'demo@tinygs.localhost';

/** A single-use login link, issued by the operator CLI the way the chat bot would send it. */
export function loginLink(dataDir: string, baseUrl: string, email = DEMO_EMAIL): URL {
  return new URL(
    cli<{ url: string }>(dataDir, baseUrl, ['user', 'login-link', '--email', email]).url,
  );
}

/** Kept for the route tests: the demo user's link. */
export function demoLoginLink(dataDir: string, baseUrl: string): URL {
  return loginLink(dataDir, baseUrl);
}

/** Opens a login link in the browser and waits for the user console, as a user clicking it would. */
export async function logInWithLink(page: Page, baseUrl: string, link: URL): Promise<string> {
  const userId = link.searchParams.get('userId') ?? '';
  // The link points at PUBLIC_URL, which is this server.
  await page.goto(`${baseUrl}/${link.search}`, { waitUntil: 'load' });
  await page.waitForURL(new RegExp(`/user/${userId}$`), { timeout: 20_000 });
  return userId;
}

/** Buttons and fields by what the user reads; a missing one fails with what the page shows. */
export async function visible(page: Page, locator: Locator, what: string, timeout = 15_000) {
  try {
    await locator.first().waitFor({ state: 'visible', timeout });
  } catch {
    const shown = String(await page.evaluate('document.body.innerText')).slice(0, 800);
    throw new Error(`${what} not visible on ${page.url()}; page shows: ${shown}`);
  }
  return locator.first();
}

/** Quoted-printable bodies wrap long lines with "=" and escape "=" itself. */
function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The login link of the newest mail to `email` in DATA_DIR/outbox that is not in `seen`. */
export async function outboxLoginLink(
  dataDir: string,
  email: string,
  seen: Set<string>,
  timeoutMs = 15_000,
): Promise<URL> {
  const dir = join(dataDir, 'outbox');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.eml')) : [];
    for (const file of files.sort().reverse()) {
      if (seen.has(file)) continue;
      const mail = decodeQuotedPrintable(readFileSync(join(dir, file), 'utf8'));
      if (!mail.toLowerCase().includes(email.toLowerCase())) continue;
      const match = /https?:\/\/[^\s"<>]+loginToken=[^\s"<>]+/.exec(mail);
      if (match) return new URL(match[0].replace(/&amp;/g, '&'));
    }
    if (Date.now() > deadline) throw new Error(`no login mail to ${email} in ${dir}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Names of the mails already in the outbox, so a test can tell its own mail apart. */
export function outboxFiles(dataDir: string): Set<string> {
  const dir = join(dataDir, 'outbox');
  return new Set(existsSync(dir) ? readdirSync(dir) : []);
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown }[];
}

/** Runs axe-core in the page; returns the serious and critical violations. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated through the debugging protocol: the app's CSP (script-src 'self') rightly refuses an
  // inline script tag, and the test must not weaken the CSP it runs under.
  await page.evaluate(axe.source);
  const result = (await page.evaluate('axe.run(document, { resultTypes: ["violations"] })')) as {
    violations: AxeViolation[];
  };
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Readable form of violations for an assertion message. */
export function describeViolations(violations: AxeViolation[]): string[] {
  return violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} at ${v.nodes
        .slice(0, 3)
        .map((n) => JSON.stringify(n.target))
        .join(', ')}`,
  );
}

/** docs/screenshots/{name}-{width}.png, only when UPDATE_SCREENSHOTS=1. */
export async function maybeScreenshot(page: Page, name: string, width: number): Promise<void> {
  if (process.env.UPDATE_SCREENSHOTS !== '1') return;
  const dir = join(REPO_ROOT, 'docs/screenshots');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}-${width}.png`), fullPage: false });
}

/** The first inactive satellite of the catalogue, as /satellitesIna lists it. */
export async function inactiveSatellite(
  baseUrl: string,
): Promise<{ name: string; displayName: string }> {
  const res = await fetch(`${baseUrl}/v1/satellitesIna`);
  const list = res.ok ? ((await res.json()) as { name: string; displayName?: string }[]) : [];
  const first = list[0];
  if (!first) throw new Error(`/v1/satellitesIna answered ${res.status} with no satellite`);
  return { name: first.name, displayName: first.displayName ?? first.name };
}

export interface Announcements {
  /** packet ids announced on /sse/events since the collector opened */
  ids: Set<string>;
  close(): void;
}

/** Listens to /sse/events like a second browser tab and keeps every announced packet id. */
export async function collectAnnouncements(baseUrl: string): Promise<Announcements> {
  const controller = new AbortController();
  const ids = new Set<string>();
  const res = await fetch(`${baseUrl}/sse/events`, { signal: controller.signal });
  if (!res.body) throw new Error('no event stream');
  const body = res.body;
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = /^event: new-packet\ndata: (.*)$/m.exec(block)?.[1];
          if (data) ids.add((JSON.parse(data) as AnnouncedPacket).packetId);
        }
      }
    } catch {
      // aborted by close()
    }
  })();
  return { ids, close: () => controller.abort() };
}
