// A stand-in for SatNOGS DB's telemetry endpoint (POST /api/telemetry/) that takes a submission the
// way SatNOGS DB does: a form body (urlencoded or multipart), `Authorization: Token KEY` checked
// when present (401 for an unknown key), noradID required and numeric, latitude and longitude
// required and read with an N/S/E/W suffix or as plain numbers within their ranges, timestamp in
// ISO 8601, source at most 45 characters, a frame given (here also: even-length hex, as SiDS
// says). Answers 201 with no body; validation failures 400 with a reason. It can be taken down
// (503 or connections dropped) and told to answer the next requests with given statuses.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface SidsSubmission {
  noradID: string;
  source: string;
  timestamp: string;
  frame: string;
  locator: string | null;
  latitude: string;
  longitude: string;
  azimuth: string | null;
  elevation: string | null;
  authorization: string | null;
}

export interface FakeSatnogsDb {
  /** the telemetry endpoint's URL */
  url: string;
  /** submissions taken (201), in order */
  accepted: SidsSubmission[];
  /** requests of any kind that reached it */
  requests: number;
  /** validation failures: status and reason */
  invalid: { status: number; reason: string }[];
  /** up: validate and take; down: 503 to everything; unreachable: connections dropped */
  mode: 'up' | 'down' | 'unreachable';
  /** the next requests are answered with these statuses, in order, and not taken */
  answerNext(...statuses: number[]): void;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1024 * 1024;
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
// ISO 8601 date and time as Django REST framework's DateTimeField reads it.
const ISO_8601 = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}(:?\d{2})?)?$/;

/** SatNOGS DB's reading: a letter anywhere means "number then one letter", negative for S / W. */
function coordinate(text: string, negative: 'S' | 'W', limit: number): number | null {
  const hasLetter = /[A-Za-z]/.test(text);
  const digits = hasLetter ? text.slice(0, -1) : text;
  if (!NUMBER.test(digits)) return null;
  const value = (hasLetter && text.includes(negative) ? -1 : 1) * Number(digits);
  return Math.abs(value) <= limit ? value : null;
}

async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function multipartFields(body: string, boundary: string): URLSearchParams {
  const fields = new URLSearchParams();
  for (const part of body.split(`--${boundary}`)) {
    const match = /name="([^"]+)"\r\n\r\n([\s\S]*)\r\n$/.exec(part);
    if (match?.[1] !== undefined && match[2] !== undefined) fields.set(match[1], match[2]);
  }
  return fields;
}

/** Null when the submission is taken, otherwise the status and reason SatNOGS DB would give. */
function validate(
  fields: URLSearchParams,
  authorization: string | null,
  tokens: ReadonlySet<string>,
): { status: number; reason: string } | null {
  if (authorization !== null) {
    const key = /^Token ([^\s]+)$/.exec(authorization)?.[1];
    if (!key || !tokens.has(key)) return { status: 401, reason: 'Invalid token.' };
  }
  const norad = fields.get('noradID');
  if (!norad || !/^\d{1,9}$/.test(norad)) return { status: 400, reason: 'noradID' };
  for (const name of ['latitude', 'longitude'] as const) {
    if (!fields.has(name)) return { status: 400, reason: `Missing request parameter: '${name}'` };
  }
  if (coordinate(fields.get('latitude') ?? '', 'S', 90) === null)
    return { status: 400, reason: 'latitude' };
  if (coordinate(fields.get('longitude') ?? '', 'W', 180) === null)
    return { status: 400, reason: 'longitude' };
  const timestamp = fields.get('timestamp') ?? '';
  if (!ISO_8601.test(timestamp) || Number.isNaN(Date.parse(timestamp)))
    return { status: 400, reason: 'timestamp: Datetime has wrong format.' };
  const source = fields.get('source');
  if (source === null || source === '') return { status: 400, reason: 'station: required' };
  if (source.length > 45) return { status: 400, reason: 'station: at most 45 characters' };
  const frame = fields.get('frame') ?? '';
  if (frame === '' || frame.length % 2 !== 0 || !/^[0-9A-Fa-f]+$/.test(frame))
    return { status: 400, reason: 'frame' };
  return null;
}

export async function startFakeSatnogsDb(tokens: string[] = []): Promise<FakeSatnogsDb> {
  const known = new Set(tokens);
  const scripted: number[] = [];
  const sockets = new Set<Socket>();
  const state: Omit<FakeSatnogsDb, 'url' | 'answerNext' | 'close'> = {
    accepted: [],
    requests: 0,
    invalid: [],
    mode: 'up',
  };
  const server: Server = createServer((req, res) => {
    state.requests += 1;
    if (state.mode === 'unreachable') {
      req.socket.destroy();
      return;
    }
    void (async () => {
      const body = await readBody(req);
      const answer = (status: number, text = '') => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(text);
      };
      if (state.mode === 'down') return answer(503, '{"detail":"Service unavailable"}');
      const scriptedStatus = scripted.shift();
      if (scriptedStatus !== undefined) return answer(scriptedStatus, '{"detail":"scripted"}');
      if (req.url !== '/api/telemetry/') return answer(404);
      if (req.method !== 'POST') return answer(405);
      if (body === null) return answer(413);
      const type = req.headers['content-type'] ?? '';
      const boundary = /^multipart\/form-data;\s*boundary=(.+)$/.exec(type)?.[1];
      let fields: URLSearchParams;
      if (type.startsWith('application/x-www-form-urlencoded')) fields = new URLSearchParams(body);
      else if (boundary) fields = multipartFields(body, boundary);
      else return answer(415, '{"detail":"Unsupported media type"}');
      const authorization = req.headers.authorization ?? null;
      const refused = validate(fields, authorization, known);
      if (refused) {
        state.invalid.push(refused);
        return answer(refused.status, JSON.stringify({ detail: refused.reason }));
      }
      state.accepted.push({
        noradID: fields.get('noradID') ?? '',
        source: fields.get('source') ?? '',
        timestamp: fields.get('timestamp') ?? '',
        frame: fields.get('frame') ?? '',
        locator: fields.get('locator'),
        latitude: fields.get('latitude') ?? '',
        longitude: fields.get('longitude') ?? '',
        azimuth: fields.get('azimuth'),
        elevation: fields.get('elevation'),
        authorization,
      });
      answer(201);
    })();
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/api/telemetry/`,
    answerNext(...statuses: number[]) {
      scripted.push(...statuses);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  });
}
