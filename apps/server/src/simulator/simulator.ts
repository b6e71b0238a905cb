// The simulated network: N virtual stations connected to a broker, listening to the satellite
// they are tuned to. Each satellite beacons on its own schedule; every station tuned to it that has
// it above 5 degrees hears the same bytes (so receptions merge into one packet), with RSSI and SNR
// from the slant range, a few CRC errors and the odd test frame.
import {
  bandOfFrequency,
  CRC_ERROR_MARKER,
  TEST_FRAME_PREFIX,
  type ModemConf,
} from '@tinygs/contracts';
import type { Logger } from 'pino';
import { FrameMaker } from './frames';
import type { StationSpec } from './layout';
import { MIN_ELEVATION_DEG, simulateReception, type SimReception } from './radio';
import { lookFrom, type SimSatellite } from './sky';
import { VirtualStation, type StationCredentials } from './virtual-station';

export interface SimulatorOptions {
  brokerUrl: string;
  satellites: SimSatellite[];
  stations: { spec: StationSpec; credentials: StationCredentials }[];
  log: Logger;
  /** stations pick a visible satellite themselves when theirs has set (no server auto-tune) */
  selfTune: boolean;
  tickMs?: number;
  pingEveryMs?: number;
  /** stations connecting per tick at start-up */
  connectPerTick?: number;
}

const CRC_ERROR_PROBABILITY = 0.04;
const TEST_FRAME_PROBABILITY = 0.005;

function hashOf(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

interface Beacon {
  periodMs: number;
  phaseMs: number;
  last: number;
}

export class Simulator {
  readonly stations: VirtualStation[] = [];
  rxSent = 0;
  private readonly listeners = new Map<string, Set<VirtualStation>>();
  private readonly beacons = new Map<string, Beacon>();
  private readonly byName: Map<string, SimSatellite>;
  private readonly frames = new FrameMaker();
  private readonly timers: NodeJS.Timeout[] = [];
  private stopped = false;

  constructor(private readonly options: SimulatorOptions) {
    this.byName = new Map(options.satellites.map((s) => [s.name, s]));
    for (const s of options.satellites) {
      const h = hashOf(s.name);
      // Beacons every 15-30 s, as amateur satellites typically do.
      const periodMs = (15 + (h % 4) * 5) * 1000;
      this.beacons.set(s.name, { periodMs, phaseMs: h % periodMs, last: -1 });
    }
    for (const { spec, credentials } of options.stations) {
      this.stations.push(
        new VirtualStation(
          spec,
          credentials,
          (name) => this.byName.get(name),
          (st) => this.relisten(st),
          options.log,
        ),
      );
    }
  }

  /** Tunes every station to a satellite it can hear now, then connects them a few at a time. */
  start(): void {
    const now = Date.now();
    for (const station of this.stations) this.tuneBest(station, now);
    const perTick = this.options.connectPerTick ?? 20;
    let next = 0;
    const connector = setInterval(() => {
      for (let i = 0; i < perTick && next < this.stations.length; i += 1, next += 1) {
        this.stations[next]?.connect(this.options.brokerUrl);
      }
      if (next >= this.stations.length) clearInterval(connector);
    }, 100);
    const tickMs = this.options.tickMs ?? 1000;
    const pingEveryMs = this.options.pingEveryMs ?? 60_000;
    let tick = 0;
    this.timers.push(
      connector,
      setInterval(() => this.beaconTick(Date.now()), tickMs),
      setInterval(() => {
        tick += 1;
        // Spread pings over the minute instead of 200 at once.
        const slots = Math.max(1, Math.round(pingEveryMs / tickMs));
        for (const s of this.stations) if (s.spec.index % slots === tick % slots) s.ping();
      }, tickMs),
    );
    if (this.options.selfTune) {
      this.timers.push(setInterval(() => this.selfTune(Date.now()), 60_000));
    }
    for (const t of this.timers) t.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers.splice(0)) clearInterval(t);
    await Promise.all(this.stations.map((s) => s.stop()));
  }

  private relisten(station: VirtualStation): void {
    for (const set of this.listeners.values()) set.delete(station);
    const name = station.tuning?.satellite.name;
    if (!name) return;
    let set = this.listeners.get(name);
    if (!set) {
      set = new Set();
      this.listeners.set(name, set);
    }
    set.add(station);
  }

  /** Highest satellite above 5 degrees in the station's band, else in any band, else the best of its band. */
  private tuneBest(station: VirtualStation, now: number): void {
    let bestInBand: { sat: SimSatellite; el: number } | null = null;
    let bestAny: { sat: SimSatellite; el: number } | null = null;
    for (const sat of this.options.satellites) {
      const look = lookFrom(sat, station.spec.location, now);
      if (!look) continue;
      const el = look.elevationDeg;
      if (
        bandOfFrequency(sat.config.freq) === station.spec.band &&
        (!bestInBand || el > bestInBand.el)
      )
        bestInBand = { sat, el };
      if (el > MIN_ELEVATION_DEG && (!bestAny || el > bestAny.el)) bestAny = { sat, el };
    }
    const choice =
      bestInBand && bestInBand.el > MIN_ELEVATION_DEG ? bestInBand : (bestAny ?? bestInBand);
    if (choice && choice.sat.name !== station.tuning?.satellite.name) station.tune(choice.sat);
  }

  private selfTune(now: number): void {
    for (const station of this.stations) {
      const current = station.tuning?.satellite;
      const look = current ? lookFrom(current, station.spec.location, now) : null;
      if (!look || look.elevationDeg < MIN_ELEVATION_DEG) this.tuneBest(station, now);
    }
  }

  private beaconTick(now: number): void {
    if (this.stopped) return;
    for (const sat of this.options.satellites) {
      const beacon = this.beacons.get(sat.name);
      if (!beacon) continue;
      const slot = Math.floor((now - beacon.phaseMs) / beacon.periodMs);
      if (slot === beacon.last) continue;
      beacon.last = slot;
      const listeners = this.listeners.get(sat.name);
      if (!listeners || listeners.size === 0) continue;
      let frame: Uint8Array | null = null;
      for (const station of listeners) {
        if (!station.connected || !station.tuning) continue;
        const look = lookFrom(sat, station.spec.location, now);
        if (!look) continue;
        const rx = simulateReception(look, station.tuning.modem, sat.balloon !== null);
        if (!rx.heard) continue;
        frame ??= this.frames.next(sat, now);
        const crc = Math.random() < CRC_ERROR_PROBABILITY;
        this.sendRx(
          station,
          sat,
          crc ? Buffer.from(CRC_ERROR_MARKER, 'latin1') : frame,
          crc,
          rx,
          look.rangeRateKmPerS,
          now,
        );
        if (Math.random() < TEST_FRAME_PROBABILITY) {
          this.sendRx(
            station,
            sat,
            Buffer.from(
              `${TEST_FRAME_PREFIX}${station.spec.name} ${Math.floor(now / 1000)}`,
              'latin1',
            ),
            false,
            rx,
            0,
            now,
          );
        }
      }
    }
  }

  private sendRx(
    station: VirtualStation,
    sat: SimSatellite,
    bytes: Uint8Array,
    crcError: boolean,
    rx: ReturnType<typeof simulateReception>,
    rangeRateKmPerS: number,
    now: number,
  ): void {
    const modem = station.tuning?.modem ?? sat.config;
    const payload = rxMessage(
      station.spec.location,
      modem,
      sat,
      bytes,
      crcError,
      rx,
      rangeRateKmPerS,
      now,
    );
    station.publish('tele', 'rx', payload);
    this.rxSent += 1;
  }
}

/** The `tele/rx` a firmware station publishes for one frame (PROTOCOL.md field names). */
export function rxMessage(
  location: readonly [number, number],
  modem: ModemConf,
  sat: Pick<SimSatellite, 'name' | 'norad'>,
  bytes: Uint8Array,
  crcError: boolean,
  rx: Pick<SimReception, 'rssiDbm' | 'snrDb' | 'frequencyErrorHz'>,
  rangeRateKmPerS: number,
  now: number,
): Record<string, unknown> {
  const data = Buffer.from(bytes).toString('base64');
  const common = {
    station_location: location,
    frequency: modem.freq,
    frequency_offset: 0,
    satellite: sat.name,
    NORAD: sat.norad,
    rssi: rx.rssiDbm,
    snr: rx.snrDb,
    // What is left of the Doppler shift after the station's own correction, plus crystal error.
    frequency_error: Math.round(
      rx.frequencyErrorHz - (modem.freq * 1e6 * rangeRateKmPerS) / 299_792.458 / 20,
    ),
    unix_GS_time: Math.floor(now / 1000),
    usec_time: now * 1000 + Math.floor(Math.random() * 1000),
    crc_error: crcError,
    data,
    noisy: false,
  };
  return modem.mode === 'LoRa'
    ? {
        ...common,
        mode: 'LoRa',
        sf: modem.sf ?? 10,
        cr: modem.cr ?? 5,
        bw: modem.bw ?? 125,
        iIQ: modem.iIQ ?? false,
      }
    : {
        ...common,
        mode: 'FSK',
        bitrate: modem.br ?? 9.6,
        freqdev: modem.fd ?? 5,
        rxBw: modem.bw ?? 25,
        data_raw: data,
      };
}
