// The batch planner (network/ingest/plan-batch.ts) as a pure function: queued operations in, the
// rows a batch writes and the events it announces out, with no storage. What a station, the
// public counters and the live map would see of a batch is decided here; the stores only write it.
import { describe, expect, it } from 'vitest';
import type { NewPacket, NewReception } from '../src/db/schema';
import {
  lifecycleEffects,
  planBatch,
  planReceptions,
  receptionKey,
  type LifecycleOp,
  type PlannedReceptions,
  type ReceptionWrite,
  type WriteOp,
} from '../src/network/ingest/plan-batch';
import { packRows, unpackRows } from '../src/network/ingest/packed-rows';
import { newPacketSamples } from '../src/telemetry/samples';

const T = Date.UTC(2026, 10, 28, 12, 0, 0);
const DAY = '2026-11-28';
const DAY_MS = 86_400_000;
const POS = { lat: 10, lng: 20, alt: 500 };

function packetRow(id: string, over: Partial<NewPacket> = {}): NewPacket {
  return {
    id,
    satellite: 'Norbi',
    norad: 46494,
    serverTime: T,
    raw: 'AAEC',
    frameHash: `hash-${id}`,
    mode: 'LoRa',
    freq: 436.703,
    parsed: '{"payload":{"batteryVoltage":7.4,"temperature":-3}}',
    crcError: 0,
    isTest: 0,
    stationNumber: 0,
    historical: 0,
    ...over,
  };
}

interface Rx {
  packet: string;
  station: string;
  at?: number;
  creates?: boolean;
  crc?: boolean;
  decoded?: boolean;
  distance?: number;
  satellite?: string;
  satnogs?: boolean;
}

function reception(r: Rx): ReceptionWrite {
  const satellite = r.satellite ?? 'Norbi';
  const at = r.at ?? T;
  const row: NewReception = {
    packetId: r.packet,
    stationId: r.station,
    userId: `user-of-${r.station}`,
    serverTime: at,
    lat: 1,
    lng: 2,
    distance: r.distance ?? null,
    crcError: r.crc ? 1 : 0,
  };
  return {
    packetId: r.packet,
    newPacket: r.creates
      ? packetRow(r.packet, {
          satellite,
          serverTime: at,
          ...(r.crc ? { crcError: 1, parsed: null } : {}),
        })
      : null,
    reception: row,
    satelliteName: satellite,
    satDisplayName: `${satellite} (display)`,
    satPos: r.crc ? null : POS,
    crcError: r.crc ?? false,
    decoded: r.decoded ?? !r.crc,
    ...(r.satnogs ? { forwardToSatnogs: true as const } : {}),
  };
}

const rx = (r: Rx): WriteOp => ({ kind: 'reception', write: reception(r) });

function planned(ops: WriteOp[], drops = 0): PlannedReceptions {
  const plan = planBatch(ops, drops);
  if (plan.receptions.shared) throw new Error('expected a plan of this instance');
  return plan.receptions.planned;
}

describe('planBatch', () => {
  it('merges the copies of a frame into one new packet and joins packets stored before', () => {
    const ops = [
      rx({ packet: 'p1', station: 'a', creates: true, distance: 800 }),
      rx({ packet: 'p1', station: 'b', at: T + 40, distance: 1200 }),
      // a packet an earlier batch stored
      rx({ packet: 'p0', station: 'a', at: T + 90, decoded: false, distance: 300 }),
    ];
    const { rows, events, stored, duplicates } = planned(ops, 3);

    expect(rows.packets).toEqual([packetRow('p1', { stationNumber: 2 })]);
    expect(rows.receptions.map(receptionKey)).toEqual(['p1\na', 'p1\nb', 'p0\na']);
    expect(rows.stationNumbers).toEqual([{ id: 'p0', add: 1 }]);
    expect(rows.stationStats).toEqual([
      {
        id: 'a',
        telemetryPackets: 2,
        confirmedPackets: 1,
        crcErrors: 0,
        lastPacketTime: T + 90,
        lastSeen: T + 90,
        maxDistanceKm: 800,
      },
      {
        id: 'b',
        telemetryPackets: 1,
        confirmedPackets: 1,
        crcErrors: 0,
        lastPacketTime: T + 40,
        lastSeen: T + 40,
        maxDistanceKm: 1200,
      },
    ]);
    expect(rows.satelliteStats).toEqual([
      { name: 'Norbi', frames: 3, confirmedPackets: 1, lastPacketTime: T + 90 },
    ]);
    expect(rows.dailyStats).toEqual([
      { stationId: 'a', day: DAY, satellite: 'Norbi', frames: 2 },
      { stationId: 'b', day: DAY, satellite: 'Norbi', frames: 1 },
    ]);
    expect(rows.leaderboards.satelliteDays).toEqual([{ day: DAY, satellite: 'Norbi', packets: 1 }]);
    expect(rows.leaderboards.stationDays).toEqual([
      { day: DAY, stationId: 'a', confirmedPackets: 1, recordDistanceKm: 800 },
      { day: DAY, stationId: 'b', confirmedPackets: 1, recordDistanceKm: 1200 },
    ]);
    expect(rows.counters).toEqual({ packets: 1, receptions: 3, crcErrors: 0 });
    // the new packet's decoded numbers become telemetry series, at the packet's time
    expect(newPacketSamples(rows.samplesOf)).toEqual([
      { satellite: 'Norbi', field: 'payload.batteryVoltage', at: T, value: 7.4 },
      { satellite: 'Norbi', field: 'payload.temperature', at: T, value: -3 },
    ]);
    expect(rows.satnogs).toEqual([]);

    expect(events.newPackets).toEqual([
      {
        packetId: 'p1',
        satelliteName: 'Norbi',
        satDisplayName: 'Norbi (display)',
        satPos: POS,
        crcError: false,
        stations: ['a', 'b'],
      },
    ]);
    expect(events.changedStations).toEqual(['a', 'b']);
    expect([stored, duplicates]).toEqual([3, 0]);
    expect(planBatch(ops, 3).droppedMessages).toBe(3);
  });

  it('counts a CRC error for its station only: no packet, statistics or samples', () => {
    const { rows, events } = planned([
      rx({ packet: 'c1', station: 'a', creates: true, crc: true, distance: 5000 }),
      rx({ packet: 'c2', station: 'a', at: T + 5, creates: true, satnogs: true }),
    ]);
    // the CRC report is stored as a packet of its own (it never merges) but counts as none
    expect(rows.packets.map((p) => [p.id, p.crcError, p.stationNumber])).toEqual([
      ['c1', 1, 1],
      ['c2', 0, 1],
    ]);
    expect(rows.counters).toEqual({ packets: 1, receptions: 2, crcErrors: 1 });
    expect(rows.stationStats).toEqual([
      {
        id: 'a',
        telemetryPackets: 1,
        confirmedPackets: 1,
        crcErrors: 1,
        lastPacketTime: T + 5,
        lastSeen: T + 5,
        maxDistanceKm: null,
      },
    ]);
    expect(rows.satelliteStats).toEqual([
      { name: 'Norbi', frames: 1, confirmedPackets: 1, lastPacketTime: T + 5 },
    ]);
    expect(rows.dailyStats).toEqual([{ stationId: 'a', day: DAY, satellite: 'Norbi', frames: 1 }]);
    expect(rows.leaderboards.stationDays).toEqual([
      { day: DAY, stationId: 'a', confirmedPackets: 1, recordDistanceKm: null },
    ]);
    expect(newPacketSamples(rows.samplesOf).map((s) => s.at)).toEqual([T + 5, T + 5]);
    expect(rows.satnogs).toEqual([{ packetId: 'c2', stationId: 'a', serverTime: T + 5 }]);
    expect(events.newPackets.map((p) => [p.packetId, p.crcError, p.stations])).toEqual([
      ['c1', true, ['a']],
      ['c2', false, ['a']],
    ]);
  });

  it('counts each reception on its own UTC day across midnight', () => {
    const midnight = Date.UTC(2026, 10, 29);
    const { rows } = planned([
      rx({ packet: 'p1', station: 'a', at: midnight - 1, creates: true }),
      rx({ packet: 'p2', station: 'a', at: midnight, creates: true }),
      rx({ packet: 'p3', station: 'a', at: midnight + 1, creates: true }),
    ]);
    expect(rows.dailyStats).toEqual([
      { stationId: 'a', day: '2026-11-28', satellite: 'Norbi', frames: 1 },
      { stationId: 'a', day: '2026-11-29', satellite: 'Norbi', frames: 2 },
    ]);
    expect(rows.leaderboards.satelliteDays).toEqual([
      { day: '2026-11-28', satellite: 'Norbi', packets: 1 },
      { day: '2026-11-29', satellite: 'Norbi', packets: 2 },
    ]);
  });

  it('keeps station lifecycle writes in arrival order, apart from the receptions', () => {
    const welcome: LifecycleOp = {
      kind: 'welcome',
      write: { id: 'a', name: 'a', userId: 'u', at: T, lat: 1, lng: 2, version: 1, tx: true },
      cameOnline: true,
    };
    const offline: LifecycleOp = { kind: 'offline', ids: ['b'], at: T + 1, cause: 'last-will' };
    const satellite: LifecycleOp = { kind: 'satellite', id: 'a', satellite: 'Norbi' };
    const plan = planBatch(
      [welcome, rx({ packet: 'p1', station: 'a', creates: true }), offline, satellite],
      0,
    );
    expect(plan.lifecycle).toEqual([welcome, offline, satellite]);
    expect(plan.receptions.shared).toBe(false);
  });

  it('is pure: the queued operations are left as they were and plan the same twice', () => {
    const ops = [
      rx({ packet: 'p1', station: 'a', creates: true }),
      rx({ packet: 'p1', station: 'b' }),
    ];
    const before = structuredClone(ops);
    const first = planBatch(ops, 1);
    expect(ops).toEqual(before);
    expect(planBatch(ops, 1)).toEqual(first);
  });
});

describe('rows packed for the SQLite writer thread', () => {
  /** Every column of `row` as `back` has it: its value, or null where the row had none (NULL either way). */
  function sameColumns(back: readonly object[], rows: readonly object[]) {
    expect(back).toHaveLength(rows.length);
    back.forEach((b, i) => {
      const row = rows[i] as Record<string, unknown>;
      for (const [key, value] of Object.entries(b)) expect(value, key).toBe(row[key] ?? null);
      for (const key of Object.keys(row)) expect(b, key).toHaveProperty(key);
    });
  }

  it('gives the thread the rows the planner made, copied through a message', () => {
    const { rows } = planned([
      rx({ packet: 'p1', station: 'a', creates: true, distance: 800, satnogs: true }),
      rx({ packet: 'p1', station: 'b', at: T + 40, distance: 1200.25 }),
      rx({ packet: 'p2', station: 'c', creates: true, crc: true }),
      rx({ packet: 'p0', station: 'a', at: T + DAY_MS + 90, decoded: false, distance: -0.5 }),
    ]);
    const { packed, transfer } = packRows(rows);
    // as postMessage delivers it, the numbers' buffers moved rather than copied
    const back = unpackRows(structuredClone(packed, { transfer }));
    expect(transfer.every((buffer) => buffer.byteLength === 0)).toBe(true);

    sameColumns(back.packets, rows.packets);
    sameColumns(back.receptions, rows.receptions);
    sameColumns(back.stationStats, rows.stationStats);
    sameColumns(back.dailyStats, rows.dailyStats);
    sameColumns(back.leaderboards.stationDays, rows.leaderboards.stationDays);
    sameColumns(back.leaderboards.stationSatellites, rows.leaderboards.stationSatellites);
    expect(back.samplesOf).toBe(back.packets);
    expect(newPacketSamples(back.samplesOf)).toEqual(newPacketSamples(rows.samplesOf));
    const { stationNumbers, satelliteStats, satnogs, counters } = back;
    expect({ stationNumbers, satelliteStats, satnogs, counters }).toEqual({
      stationNumbers: rows.stationNumbers,
      satelliteStats: rows.satelliteStats,
      satnogs: rows.satnogs,
      counters: rows.counters,
    });
    expect(back.leaderboards.satelliteDays).toEqual(rows.leaderboards.satelliteDays);
    expect(back.receptions.map((r) => r.stationId)).toEqual(['a', 'b', 'c', 'a']);
  });
});

describe('shared mode (instances sharing ingest)', () => {
  // Instance X queued: a frame it claimed (p1, heard by a and b), a copy of a frame another
  // instance claimed (p2, carrying the same row), and a's copy of p1 redelivered by the broker.
  const ops = [
    rx({ packet: 'p1', station: 'b', creates: true }),
    rx({ packet: 'p2', station: 'a', creates: true, at: T + 10, satnogs: true }),
    rx({ packet: 'p1', station: 'a', creates: true }),
    rx({ packet: 'p1', station: 'b', creates: true }),
  ];

  it('inserts packets and receptions if absent, in key order, with no stations counted yet', () => {
    const plan = planBatch(ops, 2, true);
    if (!plan.receptions.shared) throw new Error('expected a shared plan');
    const { inserts } = plan.receptions;
    expect(inserts.packets.map((p) => [p.id, p.stationNumber])).toEqual([
      ['p1', 0],
      ['p2', 0],
    ]);
    expect(inserts.receptions.map(receptionKey)).toEqual(['p1\na', 'p1\nb', 'p1\nb', 'p2\na']);
    expect(plan.droppedMessages).toBe(2);
  });

  it('counts what the batch inserted: a packet stored elsewhere joined, a copy stored once', () => {
    // p2 was stored by the other instance first, p1's a-copy too (redelivery); this batch
    // inserted p1 and b's reception of it, and a's of p2.
    const { rows, events, stored, duplicates } = planReceptions(
      ops.map((op) => (op.kind === 'reception' ? op.write : null)).filter((w) => w !== null),
      { packets: new Set(['p1']), receptions: new Set(['p1\nb', 'p2\na']) },
    );
    expect([stored, duplicates]).toEqual([2, 2]);
    expect(rows.packets).toEqual([]);
    expect(rows.receptions).toEqual([]);
    // every inserted reception adds to its packet's number, in key order
    expect(rows.stationNumbers).toEqual([
      { id: 'p1', add: 1 },
      { id: 'p2', add: 1 },
    ]);
    expect(rows.counters).toEqual({ packets: 1, receptions: 2, crcErrors: 0 });
    expect(rows.satelliteStats).toEqual([
      { name: 'Norbi', frames: 2, confirmedPackets: 1, lastPacketTime: T + 10 },
    ]);
    expect(rows.stationStats.map((s) => [s.id, s.telemetryPackets])).toEqual([
      ['a', 1],
      ['b', 1],
    ]);
    expect(rows.leaderboards.satelliteDays).toEqual([{ day: DAY, satellite: 'Norbi', packets: 1 }]);
    expect(newPacketSamples(rows.samplesOf).map((s) => s.field)).toEqual([
      'payload.batteryVoltage',
      'payload.temperature',
    ]);
    expect(rows.satnogs).toEqual([{ packetId: 'p2', stationId: 'a', serverTime: T + 10 }]);
    // only the packet this batch created is announced, with the stations it stored
    expect(events.newPackets.map((p) => [p.packetId, p.stations])).toEqual([['p1', ['b']]]);
    expect(events.changedStations).toEqual(['b', 'a']);
  });

  it('announces nothing new when every copy was stored before', () => {
    const queued = ops.flatMap((op) => (op.kind === 'reception' ? [op.write] : []));
    const none = planReceptions(queued, { packets: new Set(), receptions: new Set() });
    expect(none.rows.counters).toEqual({ packets: 0, receptions: 0, crcErrors: 0 });
    expect(none.rows.stationNumbers).toEqual([]);
    expect(none.events).toEqual({ newPackets: [], changedStations: [] });
    expect([none.stored, none.duplicates]).toEqual([0, 4]);
  });
});

describe('lifecycleEffects', () => {
  const welcome = (id: string, cameOnline: boolean | null): LifecycleOp => ({
    kind: 'welcome',
    write: { id, name: id, userId: 'u', at: T, lat: 1, lng: 2, version: 1, tx: true },
    cameOnline,
  });

  it('counts members and online stations from what storage answered when only it knows', () => {
    const ops: LifecycleOp[] = [
      welcome('a', null),
      welcome('b', false),
      { kind: 'seen', id: 'c', at: T + 1, cameOnline: null },
      { kind: 'seen', id: 'd', at: T + 2, cameOnline: null },
      { kind: 'seen', id: 'e', at: T + 3, cameOnline: true },
      { kind: 'offline', ids: ['a', 'f', 'g'], silentBefore: T, at: T + 4, cause: 'ping-timeout' },
      { kind: 'satellite', id: 'h', satellite: 'Norbi' },
    ];
    const effects = lifecycleEffects(ops, [
      { kind: 'welcome', firstOfUser: true, cameOnline: true },
      // this process knew b was online already, whatever storage says
      { kind: 'welcome', firstOfUser: false, cameOnline: true },
      { kind: 'seen', flipped: true },
      { kind: 'seen', flipped: false },
      { kind: 'seen', flipped: false },
      { kind: 'offline', gone: ['f', 'g'] },
      { kind: 'satellite' },
    ]);
    expect(effects.members).toBe(1);
    expect(effects.online).toBe(3 - 2);
    expect(effects.transitions).toEqual([
      { stationId: 'a', at: T, online: true, cause: 'connect' },
      { stationId: 'c', at: T + 1, online: true, cause: 'activity' },
      { stationId: 'e', at: T + 3, online: true, cause: 'activity' },
      { stationId: 'f', at: T + 4, online: false, cause: 'ping-timeout' },
      { stationId: 'g', at: T + 4, online: false, cause: 'ping-timeout' },
    ]);
    expect(effects.changedStations).toEqual(['a', 'b', 'c', 'e', 'f', 'g', 'h']);
  });

  it('refuses results that do not answer the writes', () => {
    expect(() => lifecycleEffects([welcome('a', true)], [{ kind: 'satellite' }])).toThrow();
  });
});
