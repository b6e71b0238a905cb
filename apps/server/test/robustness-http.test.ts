// Bad input over HTTP: every path and method the OpenAPI document lists gets random and malformed
// path segments, query strings, headers and bodies, signed in and not. The server must answer each
// with a client error or success (never 5xx), keep running, still pass its health check, and leave
// storage whole: counters equal the rows they count, and no row points at a row that is gone.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parts } from '../src/parts';
import { readCounters } from '../src/repositories/counters';
import { loggedInUser, type LoggedIn } from './accounts-support';
import { buildStation, buildUser } from './factories';
import { DIALECTS, startTestServer, type TestServer } from './harness';
import { connectStation, NORBI_FRAME, NORBI_FRAME_2, rxPayload, waitFor } from './network-helpers';
import { documentedOperations, pathParams, type Operation } from './openapi-operations';

const RUNS_PER_OPERATION = 120;

// Values that are right in type often enough to get past validation, and wrong in every other way.
const fieldValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -1, 2 ** 53, 1e308, -1e308, 999999, 1000000, 137, 433, 868.5, true, false),
  fc.string({ maxLength: 30 }),
  fc.base64String({ maxLength: 400 }),
  fc.constantFrom('TinyGS-test x', 'LoRa', 'FSK', 'a@b.co', 'Norbi', '', ' '),
);

// Strings a careless or hostile client puts where an id or token belongs.
const nasty = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom(
    '',
    '..',
    '../../etc/passwd',
    '%00',
    '%',
    '%E0%A4%A',
    'a@b@c',
    'x'.repeat(600),
    '99999999999999999999999',
    '-1',
    '1e999',
    'NaN',
    'null',
    '{}',
    "' or 1=1 --",
    '<script>alert(1)</script>',
    '\u0000',
    '__proto__',
    'constructor',
  ),
);

// Header values must be visible ASCII to be sendable at all.
const headerValue = fc.oneof(
  fc.stringMatching(/^[\x21-\x7e]{0,60}$/),
  fc.constantFrom('', '0', '-1', 'null', 'undefined', '99999999999999999999999'),
);

const contentType = fc.constantFrom(
  undefined,
  'application/json',
  'application/json; charset=latin1',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'multipart/form-data',
  'image/png',
  'application/octet-stream',
  'garbage/;;;',
);

const body = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 200 }),
  fc.uint8Array({ maxLength: 512 }).map((a) => Buffer.from(a)),
  fc.constantFrom(
    '',
    '{',
    '{"a":',
    'null',
    '[]',
    '1e999',
    '{"otp":1e999,"station_name":-1}',
    '{"tx":12}',
    '{"tx":"' + 'A'.repeat(2000) + '"}',
    '{"email":{"$ne":null}}',
    '{"__proto__":{"admin":true}}',
    '['.repeat(3000) + ']'.repeat(3000),
    '--xyz\r\nContent-Disposition: form-data; name="upload"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nnot a png\r\n--xyz--\r\n',
    '--xyz\r\nContent-Disposition: form-data; name="upload"\r\n\r\n',
  ),
);

const query = fc.option(
  fc.oneof(
    fc
      .dictionary(
        fc.oneof(
          fc.constantFrom('userId', 'otp', 'token', 'id', 'page', 'limit'),
          fc.string({ maxLength: 8 }),
        ),
        nasty,
        { maxKeys: 4 },
      )
      .map((d) => new URLSearchParams(d).toString()),
    fc.constantFrom('%', '%zz', '&&&==', 'userId=1&userId=2', 'a[b][c]=1', '?'),
  ),
  { nil: undefined },
);

type Auth = 'none' | 'valid' | 'random' | 'other-user';

describe.each(DIALECTS)(
  'HTTP robustness on %s: random and malformed requests on every documented route',
  (dialect) => {
    let server: TestServer;
    let owner: LoggedIn;
    let other: LoggedIn;
    let stationId = '';
    let packetId = '';
    let operations: Operation[] = [];
    const db = () => server.ctx.database.db;

    beforeAll(async () => {
      // The network part is included so station commands (operate, tx, test) run their real path.
      const network = parts.find((p) => p.name === 'network');
      server = await startTestServer(dialect, { parts: network ? [network] : [] });
      owner = await loggedInUser(server);
      other = await loggedInUser(server);
      stationId = await buildStation(db(), { userId: owner.id, name: 'Fuzz_GS' });
      // Real packets, stored by ingest from a station, so the packet routes meet rows and counters.
      const sender = await buildUser(db());
      const station = await connectStation(server, sender, 'Fuzz_Rx_GS');
      for (const [i, data] of [NORBI_FRAME, NORBI_FRAME_2].entries()) {
        await station.publishAsync(
          `tinygs/${sender.id}/Fuzz_Rx_GS/tele/rx`,
          JSON.stringify(rxPayload({ data, usec_time: Date.now() * 1000 + i })),
          { qos: 1 },
        );
      }
      packetId = await waitFor(async () => {
        await server.ctx.services.network?.flush();
        const row = await db().selectFrom('packets').select('id').executeTakeFirst();
        return row?.id;
      }, 10_000);
      await station.endAsync();
      operations = await documentedOperations(server);
    });
    afterAll(async () => {
      await server?.stop();
    });

    it('lists the routes it is going to exercise', () => {
      // The accounts and station routes exist already; the document must describe them.
      const listed = operations.map((o) => `${o.method} ${o.path}`);
      expect(listed).toContain('POST /v1/login');
      expect(listed).toContain('PUT /v1/station/{id}');
      expect(listed.length).toBeGreaterThanOrEqual(10);
    });

    it('never answers 5xx to any malformed request, and stays healthy', async () => {
      const failures: string[] = [];
      for (const op of operations) {
        const paramNames = pathParams(op.path);
        await fc
          .assert(
            fc.asyncProperty(
              fc.array(
                fc.oneof(
                  nasty.map((s) => ({ raw: false, s })),
                  fc
                    .constantFrom('%', '%E0%A4%A', '..%2F..', '%2e%2e')
                    .map((s) => ({ raw: true, s })),
                  fc.constantFrom(
                    { raw: false, s: 'OWN_STATION' },
                    { raw: false, s: 'OWN_PACKET' },
                  ),
                ),
                { minLength: paramNames.length, maxLength: paramNames.length },
              ),
              fc.oneof(
                query,
                // The documented query parameters, each with the signed-in user's id or junk.
                fc
                  .array(fc.oneof(fc.constant('OWN_USER'), nasty), {
                    minLength: op.queryKeys.length,
                    maxLength: op.queryKeys.length,
                  })
                  .map((values) =>
                    op.queryKeys
                      .map((k, i) => {
                        const v = values[i] === 'OWN_USER' ? owner.id : (values[i] ?? '');
                        return `${encodeURIComponent(k)}=${encodeURIComponent(v)}`;
                      })
                      .join('&'),
                  ),
              ),
              fc.constantFrom<Auth>('none', 'valid', 'valid', 'random', 'other-user'),
              fc.record({ userid: headerValue, sessiontoken: headerValue }),
              fc.dictionary(
                fc.constantFrom('accept', 'accept-encoding', 'x-forwarded-for', 'cookie', 'origin'),
                headerValue,
                { maxKeys: 3 },
              ),
              fc.oneof(fc.constant('application/json'), contentType),
              fc.oneof(
                fc.option(body, { nil: undefined }),
                // Objects shaped like the documented body, with wrong, extreme or plausible values.
                fc
                  .record(
                    Object.fromEntries(op.bodyKeys.map((k) => [k, fieldValue])) as Record<
                      string,
                      typeof fieldValue
                    >,
                    { requiredKeys: [] },
                  )
                  .map((o) => JSON.stringify(o)),
              ),
              async (segments, qs, auth, randomAuth, extraHeaders, type, payload) => {
                let path = op.path;
                paramNames.forEach((name, i) => {
                  const seg = segments[i] ?? { raw: false, s: '' };
                  const own = new Map([
                    ['OWN_STATION', stationId],
                    ['OWN_PACKET', packetId],
                  ]);
                  const value = own.get(seg.s) ?? (seg.raw ? seg.s : encodeURIComponent(seg.s));
                  path = path.replace(`{${name}}`, value);
                });
                const url = qs === undefined ? path : `${path}?${qs}`;
                const headers: Record<string, string> = { ...extraHeaders };
                if (auth === 'valid') Object.assign(headers, owner.headers);
                if (auth === 'other-user') Object.assign(headers, other.headers);
                if (auth === 'random') Object.assign(headers, randomAuth);
                if (type !== undefined) headers['content-type'] = type;
                const res = await server.app.inject({
                  method: op.method,
                  url,
                  headers,
                  ...(payload !== undefined && op.method !== 'GET' ? { payload } : {}),
                });
                if (res.statusCode >= 500) {
                  throw new Error(`${op.method} ${url} [${auth}] -> ${res.statusCode} ${res.body}`);
                }
              },
            ),
            { numRuns: RUNS_PER_OPERATION, endOnFailure: true },
          )
          .catch((err: unknown) => {
            // Keep going so one run reports every route that fails, each with its shrunk example.
            const cause = (err as { cause?: unknown }).cause;
            failures.push(
              `${op.method} ${op.path}: ${String(err).slice(0, 1200)}${cause ? `\ncause: ${String(cause).slice(0, 800)}` : ''}`,
            );
          });
      }
      expect(failures).toEqual([]);
      const health = await server.app.inject({ method: 'GET', url: '/healthz' });
      expect(health.statusCode).toBe(200);
    }, 240_000);

    it('leaves storage whole: counters equal their rows, nothing points at a missing row', async () => {
      await server.ctx.services.network?.flush();
      const count = async (query: Promise<{ n: number | string | bigint }>) =>
        Number((await query).n);
      const counters = await readCounters(db());
      const packets = await count(
        db()
          .selectFrom('packets')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('crcError', '=', 0)
          .executeTakeFirstOrThrow(),
      );
      const receptions = await count(
        db()
          .selectFrom('receptions')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      );
      expect(packets).toBeGreaterThan(0);
      expect(counters.packets).toBe(packets);
      expect(counters.receptions).toBe(receptions);
      const orphanReceptions = await count(
        db()
          .selectFrom('receptions')
          .leftJoin('packets', 'packets.id', 'receptions.packetId')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('packets.id', 'is', null)
          .executeTakeFirstOrThrow(),
      );
      const orphanPictures = await count(
        db()
          .selectFrom('stationPictures')
          .leftJoin('stations', 'stations.id', 'stationPictures.stationId')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('stations.id', 'is', null)
          .executeTakeFirstOrThrow(),
      );
      expect({ orphanReceptions, orphanPictures }).toEqual({
        orphanReceptions: 0,
        orphanPictures: 0,
      });
      // The packet the fuzzing aimed at is still served whole.
      const res = await server.app.inject({ method: 'GET', url: `/v1/packet/${packetId}` });
      expect(res.statusCode).toBe(200);
    });
  },
);
