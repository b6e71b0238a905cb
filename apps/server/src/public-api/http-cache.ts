// Sending public answers. Catalogue answers carry a strong ETag over the serialised body (304
// when the client already has it). The hot list documents are PreparedBody values: serialised and
// hashed once when built, each encoding compressed well the first time a client asks for it, then
// sent as they are to every client. Documents kept per item (a packet, a station page) are
// FastBody values: the same, compressed at the fast level. Other JSON answers
// are compressed here at that fast level (on the libuv pool when large, so a big answer does not
// hold the event loop), so their routes need none of @fastify/compress's per-request hooks (those
// routes set `compress: false`).
import { promisify } from 'node:util';
import {
  brotliCompress,
  brotliCompressSync,
  constants,
  gzip,
  gzipSync,
  type BrotliOptions,
  type ZlibOptions,
} from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { strongEtag } from '../lib/etag';

const JSON_TYPE = 'application/json; charset=utf-8';
/** Smaller answers are sent as they are (headers would eat the gain). */
const COMPRESS_MIN_BYTES = 1024;
/**
 * Larger ones are compressed on the libuv pool rather than on the event loop (a 100-kB telemetry
 * day takes about a millisecond); below this the hop to the pool costs more than it saves.
 */
const COMPRESS_ASIDE_MIN_BYTES = 16 * 1024;

export function sendCached(
  req: FastifyRequest,
  reply: FastifyReply,
  body: string,
  contentType = JSON_TYPE,
  maxAgeSeconds = 60,
): FastifyReply {
  const etag = strongEtag(body);
  reply.header('etag', etag).header('cache-control', `public, max-age=${maxAgeSeconds}`);
  if (matchesEtag(req, etag)) return reply.status(304).send();
  return reply.type(contentType).send(body);
}

function matchesEtag(req: FastifyRequest, etag: string): boolean {
  const sent = req.headers['if-none-match'];
  return typeof sent === 'string' && sent.split(',').some((t) => t.trim() === etag);
}

type Encoding = 'br' | 'gzip';

/** A document ready to send: a strong ETag and its bytes in a negotiated encoding. */
export interface SendableBody {
  readonly etag: string;
  bytesFor(encoding: Encoding | null): { body: Buffer; encoding: Encoding | null };
}

/** A document whose encodings are compressed when first asked for (sent with sendKept). */
export interface KeptBody extends SendableBody {
  /** compresses `encoding` unless it is kept already (then it may return nothing) */
  compressFor(encoding: Encoding | null): Promise<void> | undefined;
}

/** Adds to Vary rather than replacing what the route already set (e.g. the session headers). */
function varyOnEncoding(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  reply.header(
    'vary',
    typeof vary === 'string' && vary ? `${vary}, accept-encoding` : 'accept-encoding',
  );
}

/**
 * Answers for the Accept-Encoding values seen: browsers and tools send a handful of them. Values
 * up to NEGOTIATED_MAX_CHARS are kept, at most NEGOTIATED_KEPT of them (then the memo starts over).
 */
const negotiated = new Map<string, Encoding | null>();
const NEGOTIATED_KEPT = 256;
const NEGOTIATED_MAX_CHARS = 200;

/** The encoding to answer with: br, else gzip, when Accept-Encoding allows it (q > 0). */
export function negotiateEncoding(accept: string | string[] | undefined): Encoding | null {
  if (typeof accept !== 'string' || accept.length === 0) return null;
  if (accept.length > NEGOTIATED_MAX_CHARS) return parseAcceptEncoding(accept);
  const known = negotiated.get(accept);
  if (known !== undefined) return known;
  const encoding = parseAcceptEncoding(accept);
  if (negotiated.size >= NEGOTIATED_KEPT) negotiated.clear();
  negotiated.set(accept, encoding);
  return encoding;
}

function parseAcceptEncoding(accept: string): Encoding | null {
  let br = false;
  let gz = false;
  let star = false;
  const refused = new Set<string>();
  for (const part of accept.toLowerCase().split(',')) {
    const [token = '', ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const ok = q === undefined || Number(q.slice(2)) > 0;
    const name = token.trim();
    if (!ok) refused.add(name);
    else if (name === 'br') br = true;
    else if (name === 'gzip' || name === 'x-gzip') gz = true;
    else if (name === '*') star = true;
  }
  if (br || (star && !refused.has('br'))) return 'br';
  if (gz || (star && !refused.has('gzip'))) return 'gzip';
  return null;
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** The options of a hot list's compression: brotli 5 past 256 kB (9 below), gzip 6. */
function preparedOptions(bytes: number, encoding: Encoding): ZlibOptions | BrotliOptions {
  return encoding === 'br'
    ? {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: bytes > 256 * 1024 ? 5 : 9,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes,
        },
      }
    : { level: 6 };
}

/**
 * A hot JSON document (the station list, the latest packets): its bytes and a strong ETag, each
 * encoding compressed well, on the libuv pool, the first time a client asks for it and then kept.
 * A document that replaces another is compressed, before it is served, in the encodings clients
 * asked of that one (compressLike), so requests do not wait for it. Browsers ask for br only: a
 * list rebuilt every second while the network is live is then never gzipped unless some client
 * wants gzip.
 */
export class PreparedBody implements KeptBody {
  private readonly compressed: Partial<Record<Encoding, Promise<Buffer>>> = {};
  private readonly ready: Partial<Record<Encoding, Buffer>> = {};

  private constructor(
    readonly etag: string,
    readonly identity: Buffer,
  ) {}

  /**
   * `previous` (the document this one replaces) is returned as it is when its bytes are `text`'s:
   * a list rebuilt with nothing changed costs no hashing, and keeps the compressions made of it.
   */
  static of(text: string, previous?: PreparedBody): PreparedBody {
    const identity = Buffer.from(text);
    if (previous?.identity.equals(identity)) return previous;
    return new PreparedBody(strongEtag(identity), identity);
  }

  /**
   * The document replacing `previous`: `previous` itself when its bytes are `text`'s, else a new
   * one, compressed in the encodings clients asked of `previous` before it is handed out.
   */
  static async replacing(previous: PreparedBody | undefined, text: string): Promise<PreparedBody> {
    const doc = PreparedBody.of(text, previous);
    await doc.compressLike(previous);
    return doc;
  }

  /** The encodings compressed or being compressed, in the order clients asked for them. */
  get encodings(): Encoding[] {
    return Object.keys(this.compressed) as Encoding[];
  }

  /** Compresses the encodings clients asked of `previous` (the document this one replaces). */
  async compressLike(previous: PreparedBody | undefined): Promise<void> {
    if (!previous || previous === this) return;
    await Promise.all(previous.encodings.map((e) => this.compressFor(e)));
  }

  /** Compresses `encoding` if it is not kept yet; concurrent callers share one compression. */
  compressFor(encoding: Encoding | null): Promise<void> | undefined {
    if (encoding === null || this.identity.length < COMPRESS_MIN_BYTES || this.ready[encoding])
      return undefined;
    let pending = this.compressed[encoding];
    if (!pending) {
      const options = preparedOptions(this.identity.length, encoding);
      pending =
        encoding === 'br' ? brotliAsync(this.identity, options) : gzipAsync(this.identity, options);
      this.compressed[encoding] = pending;
      // A failed compression (out of memory) is tried again by the next request.
      pending.then(
        (bytes) => (this.ready[encoding] = bytes),
        () => delete this.compressed[encoding],
      );
    }
    return pending.then(() => undefined);
  }

  bytesFor(encoding: Encoding | null): { body: Buffer; encoding: Encoding | null } {
    if (encoding === null || this.identity.length < COMPRESS_MIN_BYTES)
      return { body: this.identity, encoding: null };
    // Senders await compressFor first (sendKept); one that did not gets it compressed here.
    const body = (this.ready[encoding] ??=
      encoding === 'br'
        ? brotliCompressSync(this.identity, preparedOptions(this.identity.length, encoding))
        : gzipSync(this.identity, preparedOptions(this.identity.length, encoding)));
    return { body, encoding };
  }
}

/** The options of the fast compression of a JSON answer built for one request or kept per item. */
function fastOptions(bytes: number, encoding: Encoding): ZlibOptions | BrotliOptions {
  // A window no larger than the body: setting up a full-size one costs more than compressing.
  const window = Math.min(Math.max(Math.ceil(Math.log2(bytes)), 10), 15);
  return encoding === 'br'
    ? {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 1,
          [constants.BROTLI_PARAM_LGWIN]: window + 1,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes,
        },
      }
    : { level: 6, windowBits: window, memLevel: 6 };
}

function compressFast(text: string | Buffer, encoding: Encoding): Buffer {
  const options = fastOptions(Buffer.byteLength(text), encoding);
  return encoding === 'br' ? brotliCompressSync(text, options) : gzipSync(text, options);
}

/** The same, on the libuv pool: for large answers (COMPRESS_ASIDE_MIN_BYTES). */
function compressFastAside(text: string | Buffer, encoding: Encoding): Promise<Buffer> {
  const options = fastOptions(Buffer.byteLength(text), encoding);
  return encoding === 'br' ? brotliAsync(text, options) : gzipAsync(text, options);
}

/**
 * A document kept per item: serialised and hashed once, each encoding compressed (at the fast
 * level of per-request answers) the first time a client asks for it, then kept with it.
 */
export class FastBody implements KeptBody {
  private br: Buffer | null = null;
  private gzip: Buffer | null = null;

  private constructor(
    readonly etag: string,
    readonly identity: Buffer,
  ) {}

  /**
   * `previous` (the document this one replaces) is returned as it is when its bytes are `text`'s:
   * a document rebuilt with nothing changed keeps its hash and the compressions made of it.
   */
  static of(text: string, previous?: FastBody): FastBody {
    const identity = Buffer.from(text);
    if (previous?.identity.equals(identity)) return previous;
    return new FastBody(strongEtag(identity), identity);
  }

  /** A document finished elsewhere (SQLite's read thread): its bytes and their strongEtag. */
  static finished(identity: Buffer, etag: string): FastBody {
    return new FastBody(etag, identity);
  }

  /**
   * Bytes held once every encoding has been asked for, what a cache should count: the JSON and its
   * two fast compressions (each well under half of it for these documents).
   */
  get size(): number {
    return this.identity.length * 2;
  }

  /** Compresses `encoding` now if it is not kept yet, on the libuv pool when the body is large. */
  async compressFor(encoding: Encoding | null): Promise<void> {
    if (encoding === null || this.identity.length < COMPRESS_ASIDE_MIN_BYTES) return;
    if (encoding === 'br') this.br ??= await compressFastAside(this.identity, 'br');
    else this.gzip ??= await compressFastAside(this.identity, 'gzip');
  }

  bytesFor(encoding: Encoding | null): { body: Buffer; encoding: Encoding | null } {
    if (encoding === null || this.identity.length < COMPRESS_MIN_BYTES)
      return { body: this.identity, encoding: null };
    if (encoding === 'br')
      return { body: (this.br ??= compressFast(this.identity, 'br')), encoding };
    return { body: (this.gzip ??= compressFast(this.identity, 'gzip')), encoding };
  }
}

/**
 * Sends a kept document: 304 when the client has it, else the bytes in the negotiated encoding.
 * By default clients revalidate every time (`no-cache`): the lists change with every packet.
 */
export function sendPrepared(
  req: FastifyRequest,
  reply: FastifyReply,
  doc: SendableBody,
  cacheControl = 'public, no-cache',
): FastifyReply {
  reply.header('etag', doc.etag).header('cache-control', cacheControl);
  varyOnEncoding(reply);
  if (matchesEtag(req, doc.etag)) return reply.status(304).send();
  const { body, encoding } = doc.bytesFor(negotiateEncoding(req.headers['accept-encoding']));
  if (encoding) reply.header('content-encoding', encoding);
  return reply.type(JSON_TYPE).send(body);
}

/** Sends a kept document, compressing its encoding first (aside when large) if not yet kept. */
export async function sendKept(
  req: FastifyRequest,
  reply: FastifyReply,
  doc: KeptBody,
  cacheControl?: string,
): Promise<FastifyReply> {
  // A client that has the document gets a 304 without a body: nothing to compress for it.
  if (!matchesEtag(req, doc.etag))
    await doc.compressFor(negotiateEncoding(req.headers['accept-encoding']));
  return sendPrepared(req, reply, doc, cacheControl);
}

/** Sends JSON text built for this request, compressed at a fast level when the client allows. */
export async function sendJson(
  req: FastifyRequest,
  reply: FastifyReply,
  text: string,
): Promise<FastifyReply> {
  reply.type(JSON_TYPE);
  if (text.length < COMPRESS_MIN_BYTES) return reply.send(text);
  varyOnEncoding(reply);
  const encoding = negotiateEncoding(req.headers['accept-encoding']);
  if (encoding === null) return reply.send(text);
  const body =
    text.length < COMPRESS_ASIDE_MIN_BYTES
      ? compressFast(text, encoding)
      : await compressFastAside(text, encoding);
  return reply.header('content-encoding', encoding).send(body);
}
