// Shared by the benchmarks that load a server process over HTTP (bench:api, bench:cluster):
// autocannon over a rotation of paths with a browser's Accept-Encoding, the exact bytes of each
// answer written out for the bare ceiling server (api-ceiling.ts), and the ingest totals of an
// instance's /metrics.
import { mkdirSync, writeFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { join } from 'node:path';
import autocannon from 'autocannon';
import type { CeilingManifest } from './api-ceiling';

export const ACCEPT_ENCODING = 'gzip, deflate, br';

/** The exact bytes and headers the API sends for a path (no decompression on our side). */
function fetchRaw(
  url: string,
): Promise<{ body: Buffer; contentType: string; contentEncoding?: string }> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers: { 'accept-encoding': ACCEPT_ENCODING } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`${url}: ${res.statusCode}`));
        const enc = res.headers['content-encoding'];
        resolve({
          body: Buffer.concat(chunks),
          contentType: String(res.headers['content-type']),
          ...(enc ? { contentEncoding: enc } : {}),
        });
      });
    }).on('error', reject);
  });
}

export interface Measured {
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  /** requests answered in the run */
  requests: number;
}

/** autocannon on `base`, each request the next of `paths`. */
export async function cannon(
  base: string,
  paths: string[],
  { connections, seconds }: { connections: number; seconds: number },
): Promise<Measured> {
  let next = 0;
  const r = await autocannon({
    url: base,
    connections,
    duration: seconds,
    headers: { 'accept-encoding': ACCEPT_ENCODING },
    requests: [
      { setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length] as string }) },
    ],
  });
  return {
    reqPerSec: r.requests.average,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    errors: r.errors + r.non2xx,
    requests: r.requests.total,
  };
}

/** Fetches every URL's exact bytes from the API and writes them as static files plus a manifest. */
export async function snapshot(
  base: string,
  routes: Record<string, string[]>,
  dir: string,
): Promise<{ manifestFile: string; bytesOf: Record<string, number> }> {
  mkdirSync(dir, { recursive: true });
  const manifest: CeilingManifest = {};
  const bytesOf: Record<string, number> = {};
  for (const [name, paths] of Object.entries(routes)) {
    let total = 0;
    for (let k = 0; k < paths.length; k += 32) {
      await Promise.all(
        paths.slice(k, k + 32).map(async (path, j) => {
          const got = await fetchRaw(base + path);
          const file = join(dir, `${name.replace(/\W/g, '')}-${k + j}`);
          writeFileSync(file, got.body);
          manifest[path] = {
            file,
            bytes: got.body.length,
            contentType: got.contentType,
            ...(got.contentEncoding ? { contentEncoding: got.contentEncoding } : {}),
          };
          total += got.body.length;
        }),
      );
    }
    bytesOf[name] = Math.round(total / paths.length);
  }
  const manifestFile = join(dir, 'manifest.json');
  writeFileSync(manifestFile, JSON.stringify(manifest));
  return { manifestFile, bytesOf };
}

/** Ingest totals from the server's own /metrics (served to loopback). */
export async function ingestTotals(
  base: string,
): Promise<{ receptions: number; packets: number; dropped: number }> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const total = (name: string) =>
    text
      .split('\n')
      .filter((line) => line.startsWith(name))
      .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
  return {
    receptions: total('tinygs_receptions_stored_total'),
    packets: total('tinygs_packets_stored_total'),
    dropped: total('tinygs_frames_dropped_total'),
  };
}
