// Telemetry over time as a visitor, an operator and a hostile station meet it: packets imported
// from the captured live data and frames received over the broker become series of every numeric
// field; GET /v1/satellite/{name}/telemetry answers a field raw or as min/avg/max per hour or day,
// as JSON or CSV, and refuses what it cannot answer with 400/404; a payload with endless numbers
// cannot grow a satellite's fields without bound; retention prunes old raw samples and hours.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  TELEMETRY_MAX_FIELDS_PER_PACKET,
  TELEMETRY_MAX_FIELDS_PER_SATELLITE,
  TELEMETRY_RAW_RETENTION_DAYS,
  TelemetryFieldsResponseSchema,
  TelemetrySeriesResponseSchema,
  type TelemetrySeries,
} from '@tinygs/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_WAITING_READS } from '../src/db/read-thread';
import { REPO_ROOT } from '../src/config';
import { importLiveDocument, readLiveDocument } from '../src/importer/live-document';
import { createNetworkPart } from '../src/network/part';
import { DAY_MS, storeTelemetrySamples } from '../src/repositories/telemetry';
import { numericFields } from '../src/telemetry/samples';
import { pruneTelemetry } from '../src/telemetry/retention';
import { buildUser } from './factories';
import { DIALECTS, startTestServer, type TestServer } from './harness';
import { NORBI_FRAME, connectStation, publishTele, rxPayload, waitFor } from './network-helpers';

const LIVE_DIR = join(REPO_ROOT, 'fixtures/live-packets-2022');
const FILES = readdirSync(LIVE_DIR)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => join(LIVE_DIR, f));

/** SATLLA-2B's battery voltage in the captured data, as the live network decoded it. */
function capturedBatteryVolts(): { t: number; v: number }[] {
  const out: { t: number; v: number }[] = [];
  for (const file of FILES) {
    const doc = JSON.parse(readFileSync(file, 'utf8')) as {
      packets: {
        satellite: string;
        serverTime: number;
        parsed?: { payload?: { batteryVolts?: number } };
      }[];
    };
    for (const p of doc.packets) {
      const v = p.parsed?.payload?.batteryVolts;
      if (p.satellite === 'SATLLA-2B' && typeof v === 'number') out.push({ t: p.serverTime, v });
    }
  }
  return out.sort((a, b) => a.t - b.t);
}

/** Raw samples as stored: timed to the second, the first of each second, within [from, to]. */
function rawOf(list: { t: number; v: number }[], from: number, to: number) {
  const out: { t: number; v: number }[] = [];
  for (const e of list) {
    const t = Math.floor(e.t / 1000) * 1000;
    if (t >= from && t <= to && out.at(-1)?.t !== t) out.push({ t, v: e.v });
  }
  return out;
}

/** The column-wise answer as one object per point. */
function points(s: TelemetrySeries) {
  return s.t.map((t, i) => ({
    t,
    avg: s.avg[i] ?? NaN,
    min: s.min?.[i] ?? NaN,
    max: s.max?.[i] ?? NaN,
    count: s.count?.[i] ?? NaN,
  }));
}

describe('numeric fields of a decoded packet', () => {
  it('takes every finite number by its dotted path, skipping text, long arrays and odd keys', () => {
    expect(
      numericFields({
        header: { msgTypeId: 6 },
        payload: {
          batteryVolts: 3925,
          name: 'x',
          nan: null,
          temps: [1, 2],
          dump: Array(20).fill(1),
        },
        'bad key': 1,
      }),
    ).toEqual([
      ['header.msgTypeId', 6],
      ['payload.batteryVolts', 3925],
      ['payload.temps.0', 1],
      ['payload.temps.1', 2],
    ]);
  });

  it('stays bounded for a hostile payload: numbers per packet, depth and path length', () => {
    const wide = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`f${i}`, i]));
    expect(numericFields({ payload: wide })).toHaveLength(TELEMETRY_MAX_FIELDS_PER_PACKET);
    let deep: unknown = 1;
    for (let i = 0; i < 1000; i += 1) deep = { a: deep };
    expect(numericFields(deep)).toEqual([]);
    expect(numericFields({ [`k${'x'.repeat(47)}`]: { [`${'y'.repeat(48)}`]: { z: 1 } } })).toEqual(
      [],
    );
  });
});

describe.each(DIALECTS)('telemetry series on %s', (dialect) => {
  let server: TestServer;
  const db = () => server.ctx.database.db;
  const expected = capturedBatteryVolts();

  beforeAll(async () => {
    server = await startTestServer(dialect, {
      parts: [createNetworkPart({ flushIntervalMs: 20 })],
    });
    // What `npm run cli -- packets import --file ...` runs.
    for (const file of FILES) await importLiveDocument(db(), readLiveDocument(file));
  });
  afterAll(async () => {
    await server?.stop();
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    server.app.inject({ method: 'GET', url, headers });
  const series = async (query: string): Promise<TelemetrySeries> => {
    const res = await get(`/v1/satellite/SATLLA-2B/telemetry?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return TelemetrySeriesResponseSchema.parse(res.json());
  };
  const first = expected[0]?.t ?? 0;
  const last = expected.at(-1)?.t ?? 0;

  it('lists the fields of the imported packets with their first and newest sample', async () => {
    expect(expected.length).toBeGreaterThan(100);
    const res = await get('/v1/satellite/SATLLA-2B/telemetry/fields');
    expect(res.statusCode).toBe(200);
    const body = TelemetryFieldsResponseSchema.parse(res.json());
    const volts = body.fields.find((f) => f.field === 'payload.batteryVolts');
    expect(volts).toEqual({
      field: 'payload.batteryVolts',
      firstAt: first,
      lastAt: last,
      samples: expected.length,
    });
    expect(body.fields.map((f) => f.field)).toContain('payload.snsNtc1');
    // Text fields are no series.
    expect(body.fields.map((f) => f.field)).not.toContain('payload.tinygsSatellite');
  });

  it('answers the raw samples of a day, by default the day up to the newest sample', async () => {
    const body = await series('field=payload.batteryVolts');
    expect(body).toMatchObject({ bucket: 'raw', from: last - DAY_MS, to: last, truncated: false });
    const inDay = rawOf(expected, last - DAY_MS, last);
    expect(inDay.length).toBeGreaterThan(10);
    expect(body.t.map((t, i) => [t, body.avg[i]])).toEqual(inDay.map((e) => [e.t, e.v]));
  });

  it('answers min/avg/max per UTC day and per hour from the rollups', async () => {
    const from = first - 1;
    const to = last + 1;
    const byDay = new Map<number, number[]>();
    for (const e of expected) {
      const day = Math.floor(e.t / DAY_MS) * DAY_MS;
      byDay.set(day, [...(byDay.get(day) ?? []), e.v]);
    }
    const days = await series(`field=payload.batteryVolts&from=${from}&to=${to}&bucket=day`);
    expect(days.bucket).toBe('day');
    expect(days.t).toHaveLength(byDay.size);
    for (const p of points(days)) {
      const values = byDay.get(p.t) ?? [];
      expect(p.count).toBe(values.length);
      expect(p.min).toBe(Math.min(...values));
      expect(p.max).toBe(Math.max(...values));
      expect(p.avg).toBeCloseTo(values.reduce((s, v) => s + v, 0) / values.length, 9);
    }
    const hours = await series(`field=payload.batteryVolts&from=${from}&to=${to}`);
    expect(hours.bucket).toBe('hour');
    expect(points(hours).reduce((s, p) => s + p.count, 0)).toBe(expected.length);
    expect(
      points(hours).every((p) => p.t % 3_600_000 === 0 && p.min <= p.avg && p.avg <= p.max),
    ).toBe(true);
    // A year ending at the newest sample: per day.
    const year = await series(`field=payload.batteryVolts&from=${last - 365 * DAY_MS}&to=${last}`);
    expect(year.bucket).toBe('day');
    expect(year).toEqual({ ...days, from: year.from, to: year.to });
  });

  it('downloads the series as CSV with format=csv or Accept: text/csv', async () => {
    const res = await get(
      `/v1/satellite/SATLLA-2B/telemetry?field=payload.batteryVolts&format=csv`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="SATLLA-2B-payload.batteryVolts-raw.csv"',
    );
    const lines = res.body.trim().split('\n');
    const inDay = rawOf(expected, last - DAY_MS, last);
    expect(lines[0]).toBe('time,value');
    expect(lines.slice(1)).toEqual(inDay.map((e) => `${new Date(e.t).toISOString()},${e.v}`));

    const daily = await get(
      `/v1/satellite/SATLLA-2B/telemetry?field=payload.batteryVolts&bucket=day&from=${first}&to=${last}`,
      { accept: 'text/csv' },
    );
    expect(daily.headers['content-type']).toMatch(/^text\/csv/);
    expect(daily.body.split('\n')[0]).toBe('time,min,avg,max,count');
  });

  it('answers the JSON of the stored rows byte for byte, with the SHA-1 ETag of those bytes, and 304 for it', async () => {
    const field = 'payload.batteryVolts';
    const head = (bucket: string, from: number, to: number) => ({
      satellite: 'SATLLA-2B',
      field,
      bucket,
      from,
      to,
    });
    // The answers as the route built them on the event loop before: the series object, in order.
    const from = last - DAY_MS;
    const raw = await db()
      .selectFrom('telemetrySamples')
      .select(['at', 'value'])
      .where('satellite', '=', 'SATLLA-2B')
      .where('field', '=', field)
      .where('at', '>=', from)
      .where('at', '<=', last)
      .orderBy('at')
      .execute();
    const hourFrom = first - 1;
    const hours = await db()
      .selectFrom('telemetryRollups')
      .select(['start', 'min', 'max', 'sum', 'count'])
      .where('satellite', '=', 'SATLLA-2B')
      .where('field', '=', field)
      .where('bucket', '=', 'hour')
      .where('start', '>=', Math.floor(hourFrom / 3_600_000) * 3_600_000)
      .where('start', '<=', last)
      .orderBy('start')
      .execute();
    expect(raw.length).toBeGreaterThan(10);
    expect(hours.length).toBeGreaterThan(10);
    const cases: [string, string][] = [
      [
        `field=${field}&from=${from}&to=${last}`,
        JSON.stringify({
          ...head('raw', from, last),
          t: raw.map((r) => r.at),
          avg: raw.map((r) => r.value),
          truncated: false,
        }),
      ],
      [
        `field=${field}&from=${hourFrom}&to=${last}&bucket=hour`,
        JSON.stringify({
          ...head('hour', hourFrom, last),
          t: hours.map((r) => r.start),
          avg: hours.map((r) => r.sum / r.count),
          min: hours.map((r) => r.min),
          max: hours.map((r) => r.max),
          count: hours.map((r) => r.count),
          truncated: false,
        }),
      ],
    ];
    for (const [query, body] of cases) {
      const url = `/v1/satellite/SATLLA-2B/telemetry?${query}`;
      const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
      const res = await get(url);
      expect(res.body).toBe(body);
      expect(res.headers.etag).toBe(etag);
      // Kept: the same document again, and nothing to send to a client that has it.
      expect((await get(url)).headers.etag).toBe(etag);
      const revalidated = await get(url, { 'if-none-match': etag });
      expect(revalidated.statusCode).toBe(304);
      expect(revalidated.body).toBe('');
    }
  });

  it.runIf(dialect === 'sqlite')(
    'answers 503 while every place at the read thread is taken, never 500, and the series once they are done',
    async () => {
      // Reads that keep the read thread busy for a while, filling every waiting place.
      const long = sql<{
        n: number;
      }>`with recursive c(i) as (select 1 union all select i + 1 from c where i < 50000) select count(*) as n from c`.compile(
        db(),
      );
      const busy = Array.from({ length: MAX_WAITING_READS }, () =>
        server.ctx.database.readAside(long),
      );
      // A window nobody asked for yet: its answer is read, not kept.
      const url = `/v1/satellite/SATLLA-2B/telemetry?field=payload.batteryVolts&from=${first}&to=${first + DAY_MS}`;
      try {
        const refused = await get(url);
        expect(refused.statusCode).toBe(503);
        expect(refused.json()).toEqual({ error: 'The server is busy. Please try again shortly.' });
      } finally {
        await Promise.all(busy);
      }
      const answered = await get(url);
      expect(answered.statusCode).toBe(200);
      expect(TelemetrySeriesResponseSchema.parse(answered.json()).t.length).toBeGreaterThan(0);
    },
  );

  it('refuses what it cannot answer with 400 or 404, never 500', async () => {
    const base = '/v1/satellite/SATLLA-2B/telemetry';
    const cases: [string, number][] = [
      [`${base}`, 400],
      [`${base}?field=${'a'.repeat(97)}`, 400],
      [`${base}?field=${'a'.repeat(1_000_000)}`, 400],
      [`${base}?field=payload.battery%20volts`, 400],
      [`${base}?field=payload..x`, 400],
      [`${base}?field=payload.batteryVolts&from=abc`, 400],
      [`${base}?field=payload.batteryVolts&from=${last}&to=${first}`, 400],
      [`${base}?field=payload.batteryVolts&from=${last - 401 * DAY_MS}&to=${last}`, 400],
      [`${base}?field=payload.batteryVolts&to=${last}&from=${last - 30 * DAY_MS}&bucket=raw`, 400],
      [
        `${base}?field=payload.batteryVolts&to=${last}&from=${last - 100 * DAY_MS}&bucket=hour`,
        400,
      ],
      [`${base}?field=payload.batteryVolts&bucket=minute`, 400],
      [`${base}?field=payload.batteryVolts&from=${last + DAY_MS}`, 400],
      [`${base}?field=payload.noSuchField`, 404],
      [`/v1/satellite/No_Such_Sat/telemetry?field=payload.batteryVolts`, 404],
      [`/v1/satellite/No_Such_Sat/telemetry/fields`, 404],
    ];
    for (const [url, status] of cases) {
      const res = await get(url);
      expect(res.statusCode, `${url.slice(0, 120)}: ${res.body.slice(0, 200)}`).toBe(status);
      expect(res.json()).toHaveProperty('error');
    }
  });

  it('adds the numbers of frames received over the broker as they are stored', async () => {
    const user = await buildUser(db());
    const station = await connectStation(server, user, 'Telemetry_GS');
    const before = Date.now();
    await publishTele(station, user, 'Telemetry_GS', 'rx', rxPayload({ data: NORBI_FRAME }));
    const packet = await waitFor(() =>
      db()
        .selectFrom('packets')
        .select(['parsed', 'serverTime'])
        .where('satellite', '=', 'Norbi')
        .where('historical', '=', 0)
        .executeTakeFirst(),
    );
    await station.endAsync();
    const numbers = numericFields(JSON.parse(packet.parsed ?? 'null'));
    const value = numbers.find(([f]) => f === 'payload.sesVoltage')?.[1];
    expect(typeof value).toBe('number');
    const url = `/v1/satellite/Norbi/telemetry?field=payload.sesVoltage&bucket=raw&from=${before - 1000}&to=${Date.now() + 1000}`;
    const live = TelemetrySeriesResponseSchema.parse((await get(url)).json());
    // Raw samples are timed to the second.
    expect([live.t, live.avg]).toEqual([[Math.floor(packet.serverTime / 1000) * 1000], [value]]);
    const fields = TelemetryFieldsResponseSchema.parse(
      (await get('/v1/satellite/Norbi/telemetry/fields')).json(),
    ).fields;
    // Every number of the stored packet is a series whose newest sample is this packet.
    for (const [field] of numbers)
      expect(fields.find((f) => f.field === field)?.lastAt, field).toBe(packet.serverTime);
  });

  it('answers a window asked again with the samples stored since, and with what retention left', async () => {
    const start = Date.UTC(2025, 2, 1, 12);
    const sample = (k: number) => ({
      satellite: 'SATLLA-2B',
      field: 'payload.kept',
      at: start + k * 1000,
      value: k,
    });
    const store = (samples: ReturnType<typeof sample>[]) =>
      db()
        .transaction()
        .execute((trx) => storeTelemetrySamples(trx, samples));
    await store([sample(0), sample(10)]);
    const url = `field=payload.kept&bucket=raw&from=${start}&to=${start + 60_000}`;
    const body = async () => {
      const s = await series(url);
      return s.t.map((t, i) => [t, s.avg[i]]);
    };
    expect(await body()).toEqual([
      [start, 0],
      [start + 10_000, 10],
    ]);
    // The same window again, unchanged: the same document (and its ETag revalidates).
    const res = await get(`/v1/satellite/SATLLA-2B/telemetry?${url}`);
    const etag = String(res.headers.etag);
    expect(
      (await get(`/v1/satellite/SATLLA-2B/telemetry?${url}`, { 'if-none-match': etag })).statusCode,
    ).toBe(304);
    // A sample inside the window, older than the newest: the field's count changed.
    await store([sample(5)]);
    expect(await body()).toEqual([
      [start, 0],
      [start + 5_000, 5],
      [start + 10_000, 10],
    ]);
    // A newer sample outside the window still changes what `to` defaults to and the count.
    await store([sample(20)]);
    expect(await body()).toHaveLength(4);
    // Retention deletes without changing the count or the newest time: it drops kept answers.
    const later = start + (TELEMETRY_RAW_RETENTION_DAYS + 1) * DAY_MS;
    await store([{ ...sample(0), at: later }]);
    expect(await body()).toHaveLength(4);
    await pruneTelemetry(server.ctx);
    expect(await body()).toEqual([]);
  });

  it('keeps at most the field cap per satellite, however many fields packets bring', async () => {
    const fieldsOf = async () =>
      TelemetryFieldsResponseSchema.parse((await get('/v1/satellite/FEES/telemetry/fields')).json())
        .fields;
    const existing = (await fieldsOf()).length;
    expect(existing).toBeGreaterThan(0);
    const at = Date.now();
    const many = Array.from({ length: TELEMETRY_MAX_FIELDS_PER_SATELLITE + 50 }, (_, i) => ({
      satellite: 'FEES',
      field: `payload.hostile${i}`,
      at,
      value: i,
    }));
    const later = many.map((s) => ({ ...s, at: at + 1000 }));
    await db()
      .transaction()
      .execute((trx) => storeTelemetrySamples(trx, many));
    await db()
      .transaction()
      .execute((trx) => storeTelemetrySamples(trx, later));
    expect(await fieldsOf()).toHaveLength(TELEMETRY_MAX_FIELDS_PER_SATELLITE);
    const { n } = await db()
      .selectFrom('telemetrySamples')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('satellite', '=', 'FEES')
      .where('field', 'like', 'payload.hostile%')
      .executeTakeFirstOrThrow();
    expect(Number(n)).toBe(2 * (TELEMETRY_MAX_FIELDS_PER_SATELLITE - existing));
  });

  it('keeps one raw sample per field and second of a flood, while the rollups count every one', async () => {
    const start = Date.UTC(2025, 0, 1, 12);
    const flood = Array.from({ length: 3000 }, (_, i) => ({
      satellite: 'Polytech_Universe-1',
      field: 'payload.flood',
      at: start + i, // three seconds
      value: i,
    }));
    for (let k = 0; k < flood.length; k += 500)
      await db()
        .transaction()
        .execute((trx) => storeTelemetrySamples(trx, flood.slice(k, k + 500)));
    const base = `/v1/satellite/Polytech_Universe-1/telemetry?field=payload.flood`;
    const raw = TelemetrySeriesResponseSchema.parse(
      (await get(`${base}&bucket=raw&from=${start}&to=${start + 10_000}`)).json(),
    );
    expect([raw.t, raw.avg]).toEqual([
      [start, start + 1000, start + 2000],
      [0, 1000, 2000],
    ]);
    const hour = TelemetrySeriesResponseSchema.parse(
      (await get(`${base}&bucket=hour&from=${start}&to=${start + 10_000}`)).json(),
    );
    expect(points(hour)).toEqual([{ t: start, min: 0, avg: 1499.5, max: 2999, count: 3000 }]);
  });

  it('prunes raw samples past the retention before the newest, keeping the daily rollups', async () => {
    const newest = Date.UTC(2025, 5, 1, 12);
    const samples = [0, 10, TELEMETRY_RAW_RETENTION_DAYS + 1, 300, 500].map((daysBack) => ({
      satellite: 'FossaSat-2E8',
      field: 'payload.retained',
      at: newest - daysBack * DAY_MS,
      value: daysBack,
    }));
    await db()
      .transaction()
      .execute((trx) => storeTelemetrySamples(trx, samples));
    await pruneTelemetry(server.ctx);
    const raw = await db()
      .selectFrom('telemetrySamples')
      .select('value')
      .where('field', '=', 'payload.retained')
      .orderBy('at')
      .execute();
    expect(raw.map((r) => r.value)).toEqual([10, 0]);
    const hours = await db()
      .selectFrom('telemetryRollups')
      .select('min')
      .where('field', '=', 'payload.retained')
      .where('bucket', '=', 'hour')
      .orderBy('start')
      .execute();
    expect(hours.map((r) => r.min)).toEqual([300, TELEMETRY_RAW_RETENTION_DAYS + 1, 10, 0]);
    const year = await get(
      `/v1/satellite/FossaSat-2E8/telemetry?field=payload.retained&from=${newest - 400 * DAY_MS}&to=${newest}`,
    );
    expect(TelemetrySeriesResponseSchema.parse(year.json()).min).toEqual([
      300,
      TELEMETRY_RAW_RETENTION_DAYS + 1,
      10,
      0,
    ]);
  });
});
