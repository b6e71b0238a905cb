// Reads one element-set source: an http(s) URL with a conditional request (If-None-Match /
// If-Modified-Since from the validators of its last good answer), or a file whose size and
// modification time serve as its validator. Bounded in time (the whole exchange, body included)
// and in size (counted on the decoded body, so a compressed answer cannot expand past it).
import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from '../config';

export interface Validators {
  etag: string | null;
  lastModified: string | null;
}

export type SourceAnswer =
  { status: 'fetched'; body: string; validators: Validators } | { status: 'not-modified' };

export interface FetchOptions {
  timeoutMs: number;
  maxBytes: number;
  /** sent as If-None-Match / If-Modified-Since; null: an unconditional request */
  validators: Validators | null;
  userAgent: string;
  /** aborts the exchange (server shutting down) */
  signal?: AbortSignal;
}

export class SourceError extends Error {}

export function isHttpSource(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

/** A file: URL or a path; relative paths are taken from the repository root. */
function filePath(source: string): string {
  if (/^file:/i.test(source)) return fileURLToPath(source);
  return isAbsolute(source) ? source : join(REPO_ROOT, source);
}

/** How a source is named in the catalogue (`tleSource`): its host, or `file:` and its name. */
export function sourceLabel(source: string): string {
  if (isHttpSource(source)) return new URL(source.replace(/[{}]/g, '')).host;
  const path = filePath(source);
  return `file:${path.slice(path.lastIndexOf('/') + 1)}`;
}

async function readBody(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw new SourceError(`answer of ${declared} bytes is over the ${maxBytes}-byte limit`);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder('utf-8');
  let received = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel();
      throw new SourceError(`answer is over the ${maxBytes}-byte limit`);
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

async function fetchHttp(url: string, options: FetchOptions): Promise<SourceAnswer> {
  const { maxBytes } = options;
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  const headers: Record<string, string> = {
    accept: 'application/json, text/plain;q=0.9, */*;q=0.5',
    'user-agent': options.userAgent,
  };
  if (options.validators?.etag) headers['if-none-match'] = options.validators.etag;
  if (options.validators?.lastModified)
    headers['if-modified-since'] = options.validators.lastModified;
  try {
    const response = await fetch(url, { headers, signal, redirect: 'follow' });
    if (response.status === 304) {
      await response.body?.cancel();
      return { status: 'not-modified' };
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new SourceError(`HTTP ${response.status}`);
    }
    const body = await readBody(response, maxBytes);
    return {
      status: 'fetched',
      body,
      validators: {
        etag: response.headers.get('etag'),
        lastModified: response.headers.get('last-modified'),
      },
    };
  } catch (err) {
    if (err instanceof SourceError) throw err;
    if (timeout.aborted) throw new SourceError(`no answer within ${options.timeoutMs} ms`);
    if (options.signal?.aborted) throw new SourceError('stopped');
    const cause =
      err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : '';
    throw new SourceError(`${err instanceof Error ? err.message : String(err)}${cause}`);
  }
}

async function readSourceFile(source: string, options: FetchOptions): Promise<SourceAnswer> {
  const { maxBytes } = options;
  const path = filePath(source);
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new SourceError(`${path} is not a file`);
    if (info.size > maxBytes)
      throw new SourceError(`${path} has ${info.size} bytes, over the ${maxBytes}-byte limit`);
    const etag = `"${info.size}-${Math.trunc(info.mtimeMs)}"`;
    if (options.validators?.etag === etag) return { status: 'not-modified' };
    const body = await readFile(path, 'utf8');
    return { status: 'fetched', body, validators: { etag, lastModified: null } };
  } catch (err) {
    if (err instanceof SourceError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new SourceError(code === 'ENOENT' ? `${path} not found` : `${path}: ${String(err)}`);
  }
}

/** Throws SourceError (with a message fit for a log line) on any failure. */
export function readSource(source: string, options: FetchOptions): Promise<SourceAnswer> {
  return isHttpSource(source) ? fetchHttp(source, options) : readSourceFile(source, options);
}
