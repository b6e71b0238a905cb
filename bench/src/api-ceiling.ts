// The ceiling of `bench:api`, run as its own process like the API: a bare node:http server that
// answers each measured URL with exactly the bytes (and Content-Type / Content-Encoding) the API
// sent for it, either read from a static file per request (`disk`, the "static file" ceiling) or
// from memory (`memory`, the bare-socket bound).
//   tsx api-ceiling.ts <manifest.json> <port> <disk|memory>
import { createReadStream, readFileSync } from 'node:fs';
import { createServer } from 'node:http';

export interface CeilingEntry {
  file: string;
  bytes: number;
  contentType: string;
  contentEncoding?: string;
}
export type CeilingManifest = Record<string, CeilingEntry>;

const [manifestFile, port, mode] = process.argv.slice(2);
if (!manifestFile || !port || (mode !== 'disk' && mode !== 'memory')) {
  console.error('usage: api-ceiling.ts <manifest.json> <port> <disk|memory>');
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as CeilingManifest;
const memory = new Map<string, Buffer>();
if (mode === 'memory')
  for (const [path, e] of Object.entries(manifest)) memory.set(path, readFileSync(e.file));

createServer((req, res) => {
  const entry = manifest[req.url ?? ''];
  if (!entry) {
    // `/` and `/healthz` answer 200: a proxy in front checks the latter (bench:cluster).
    res.writeHead(req.url === '/' || req.url === '/healthz' ? 200 : 404).end();
    return;
  }
  res.writeHead(200, {
    'content-type': entry.contentType,
    'content-length': entry.bytes,
    ...(entry.contentEncoding ? { 'content-encoding': entry.contentEncoding } : {}),
  });
  const body = memory.get(req.url ?? '');
  if (body) res.end(body);
  else createReadStream(entry.file).pipe(res);
}).listen(Number(port), '127.0.0.1');
