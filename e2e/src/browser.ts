// A fresh Chromium profile per test file, driven by playwright-core.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_ARGS } from './chromium';

const HOST_RULES_FLAG = '--host-resolver-rules=';

export interface Browser {
  context: BrowserContext;
  newPage(viewport?: { width: number; height: number }): Promise<Page>;
  close(): Promise<void>;
}

export interface BrowserOptions {
  /** Names this browser resolves to the test server's address (127.0.0.1), as a LAN or DNS would. */
  hostNames?: string[];
}

export async function openBrowser(
  chromiumPath: string,
  options: BrowserOptions = {},
): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'tinygs-chromium-'));
  const names = options.hostNames ?? [];
  // Rules apply in order: the mapped names first, then the default of CHROMIUM_ARGS.
  const args = names.length
    ? CHROMIUM_ARGS.map((arg) =>
        arg.startsWith(HOST_RULES_FLAG)
          ? `${HOST_RULES_FLAG}${names.map((n) => `MAP ${n} 127.0.0.1`).join(' , ')} , ${arg.slice(HOST_RULES_FLAG.length)}`
          : arg,
      )
    : CHROMIUM_ARGS;
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args,
    viewport: { width: 1366, height: 900 },
  });
  return {
    context,
    async newPage(viewport) {
      const page = await context.newPage();
      if (viewport) await page.setViewportSize(viewport);
      return page;
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Collects console errors and page errors so a test can assert a route renders cleanly. */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const text = msg.text();
    // Map tiles from outside hosts are unreachable here by design.
    if (/ERR_NAME_NOT_RESOLVED|net::ERR_/.test(text)) return;
    errors.push(text);
  });
  page.on('pageerror', (err) => errors.push(err.message));
  return errors;
}
