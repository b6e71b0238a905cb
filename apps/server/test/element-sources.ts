// A local stand-in for the element-set services the server reads: a node:http server answering
// like CelesTrak's GP service (TLE text with CRLF and 24-column titles, OMM JSON) and SatNOGS DB
// (/api/tle/, /api/satellites/, /api/transmitters/), with ETag / Last-Modified and 304 answers to
// conditional requests. Tests set what each path answers and read back what was asked.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeTleLines, parseTle, type TleElements } from '@tinygs/orbit';

export interface Served {
  body?: string;
  contentType?: string;
  etag?: string;
  lastModified?: string;
  status?: number;
  /** accept the connection and never answer */
  hang?: boolean;
  /** stream this many bytes of junk without a Content-Length */
  streamBytes?: number;
  /** declare this Content-Length and send nothing */
  declaredLength?: number;
}

export interface AskedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  status: number;
}

export interface SourceServer {
  url: string;
  serve(path: string, answer: Served): void;
  requests: AskedRequest[];
  close(): Promise<void>;
}

export async function startSourceServer(): Promise<SourceServer> {
  const answers = new Map<string, Served>();
  const requests: AskedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    const answer = answers.get(path);
    const record = (status: number) => requests.push({ path, headers: req.headers, status });
    if (!answer) {
      record(404);
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    if (answer.hang) {
      record(0);
      return;
    }
    if (answer.streamBytes !== undefined) {
      record(200);
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(64 * 1024, 0x41);
      let left = answer.streamBytes;
      const pump = () => {
        while (left > 0) {
          left -= chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('error', () => undefined);
      pump();
      return;
    }
    if (answer.declaredLength !== undefined) {
      record(200);
      res.writeHead(200, { 'content-length': answer.declaredLength });
      res.flushHeaders();
      return;
    }
    const sentEtag = req.headers['if-none-match'];
    const sentSince = req.headers['if-modified-since'];
    const notModified =
      (answer.etag !== undefined && sentEtag === answer.etag) ||
      (answer.etag === undefined &&
        answer.lastModified !== undefined &&
        sentSince !== undefined &&
        Date.parse(sentSince) >= Date.parse(answer.lastModified));
    const headers: Record<string, string> = {};
    if (answer.etag) headers.etag = answer.etag;
    if (answer.lastModified) headers['last-modified'] = answer.lastModified;
    if (notModified) {
      record(304);
      res.writeHead(304, headers).end();
      return;
    }
    const status = answer.status ?? 200;
    record(status);
    res
      .writeHead(status, { ...headers, 'content-type': answer.contentType ?? 'text/plain' })
      .end(answer.body ?? '');
  });
  server.keepAliveTimeout = 100;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    serve: (path, answer) => answers.set(path, answer),
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An element set as the test writes it in every format: its elements and TLE lines. */
export interface TestSet {
  elements: TleElements;
  lines: [string, string, string];
}

/**
 * A set for `held` (the satellite's current TLE lines) with another epoch and mean anomaly: the
 * same orbit plane, the satellite elsewhere on it.
 */
export function shiftedSet(
  held: readonly [string, string, string],
  epochMs: number,
  meanAnomalyDeg: number,
): TestSet {
  const tle = parseTle(held);
  const l2 = tle.line2;
  const elements: TleElements = {
    name: tle.name,
    noradId: tle.noradId,
    epoch: new Date(epochMs),
    inclinationDeg: Number(l2.slice(8, 16)),
    raanDeg: Number(l2.slice(17, 25)),
    eccentricity: Number(`0.${l2.slice(26, 33)}`),
    argPerigeeDeg: Number(l2.slice(34, 42)),
    meanAnomalyDeg,
    meanMotionRevPerDay: Number(l2.slice(52, 63)),
    bstar: 0.0001,
    meanMotionDotOver2RevPerDay2: 0.00001,
    intlDesignator: tle.line1.slice(9, 17).trim(),
    elementSetNumber: 999,
    revolutionNumberAtEpoch: 12345,
  };
  return { elements, lines: makeTleLines(elements) };
}

/** CelesTrak GP FORMAT=tle: titles padded to 24 columns, CRLF line ends. */
export function celestrakTle(sets: readonly TestSet[]): string {
  return sets.map((s) => `${s.lines[0].padEnd(24)}\r\n${s.lines[1]}\r\n${s.lines[2]}\r\n`).join('');
}

/** 20068J (TLE) -> 2020-068J (OMM); launches before 1957 do not exist, so 57-99 are 19xx. */
function objectId(designator: string): string {
  if (designator.length < 5) return '';
  const yy = Number(designator.slice(0, 2));
  return `${yy < 57 ? 2000 + yy : 1900 + yy}-${designator.slice(2)}`;
}

/** CelesTrak GP FORMAT=json: one OMM object per set, EPOCH in UTC without a zone, microseconds. */
export function celestrakOmm(sets: readonly TestSet[]): string {
  return JSON.stringify(
    sets.map(({ elements: e }) => ({
      OBJECT_NAME: e.name,
      OBJECT_ID: objectId(e.intlDesignator ?? ''),
      EPOCH: `${e.epoch.toISOString().replace('Z', '')}000`,
      MEAN_MOTION: e.meanMotionRevPerDay,
      ECCENTRICITY: e.eccentricity,
      INCLINATION: e.inclinationDeg,
      RA_OF_ASC_NODE: e.raanDeg,
      ARG_OF_PERICENTER: e.argPerigeeDeg,
      MEAN_ANOMALY: e.meanAnomalyDeg,
      EPHEMERIS_TYPE: 0,
      CLASSIFICATION_TYPE: 'U',
      NORAD_CAT_ID: e.noradId,
      ELEMENT_SET_NO: e.elementSetNumber,
      REV_AT_EPOCH: e.revolutionNumberAtEpoch,
      BSTAR: e.bstar,
      MEAN_MOTION_DOT: e.meanMotionDotOver2RevPerDay2,
      MEAN_MOTION_DDOT: 0,
    })),
  );
}

/** SatNOGS DB /api/tle/: the latest set per satellite with its SatNOGS identifiers. */
export function satnogsTle(sets: readonly TestSet[]): string {
  return JSON.stringify(
    sets.map((s, i) => ({
      tle0: `0 ${s.lines[0]}`,
      tle1: s.lines[1],
      tle2: s.lines[2],
      tle_source: 'Space-Track.org',
      sat_id: `XXXX-${String(1000 + i)}-0000-0000-0000`,
      norad_cat_id: s.elements.noradId,
      updated: new Date().toISOString().replace('Z', '+0000'),
    })),
  );
}
