// Shared steps of the browser tests: ids of real rows to open, the accessibility scan, screenshots.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import axe from 'axe-core';
import type { Page } from 'playwright-core';
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

/** A login link for the demo user, issued by the operator CLI against the server's data. */
export function demoLoginLink(dataDir: string, baseUrl: string): URL {
  const out = execFileSync(
    'npm',
    [
      'run',
      '--silent',
      'cli',
      '--',
      'user',
      'login-link',
      '--email',
      'demo@tinygs.localhost',
      '--json',
    ],
    {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        PUBLIC_URL: baseUrl,
        LOG_LEVEL: 'silent',
        SIMULATED_STATIONS: '0',
      },
    },
  );
  const json = out.slice(out.indexOf('{'));
  return new URL((JSON.parse(json) as { url: string }).url);
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
