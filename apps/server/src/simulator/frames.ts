// The bytes simulated satellites transmit. Real satellites replay frames captured from the live
// network in 2022 (real-frames.json: up to 20 decodable frames per satellite, base64, copied from
// the captured data set so the repository does not need it at run time; FossaSat-2E1 borrows its
// siblings' frames under its own callsign FO001; two of Polytech_Universe-1's three are the noise
// filed under it, stored as unverified). Demo satellites and balloons send tinygs_demo telemetry
// that follows the orbit.
import { encodeDemoFrame } from '@tinygs/decoders';
import { sunlight } from '@tinygs/orbit';
import realFrames from './real-frames.json';
import { positionOf, type SimSatellite } from './sky';

const REAL_FRAMES: Readonly<Record<string, readonly string[]>> = realFrames;

export class FrameMaker {
  private readonly counters = new Map<string, number>();

  constructor(private readonly startedAt = Date.now()) {}

  /** Satellites whose own captured frames are replayed. */
  static hasRealFrames(name: string): boolean {
    return (REAL_FRAMES[name]?.length ?? 0) > 0;
  }

  next(sat: SimSatellite, atMs: number): Uint8Array {
    const counter = (this.counters.get(sat.name) ?? Math.floor(Math.random() * 1000)) + 1;
    this.counters.set(sat.name, counter);
    const real = REAL_FRAMES[sat.name];
    if (real && real.length > 0) return Buffer.from(real[counter % real.length] ?? '', 'base64');

    const eclipse = sat.tle ? !(sunlight(sat.tle, atMs)?.sunLit ?? true) : false;
    const phase = (atMs / 5_400_000) * 2 * Math.PI;
    const position = sat.balloon ? positionOf(sat, atMs) : null;
    return encodeDemoFrame({
      frameCounter: counter,
      batteryMv: 3900 + 180 * Math.sin(phase) + (eclipse ? -120 : 60),
      temperatureC: (eclipse ? -8 : 21) + 4 * Math.sin(phase * 1.7),
      txPowerMw: sat.txPowerMw,
      solarCurrentMa: eclipse ? 0 : 240 + 80 * Math.cos(phase),
      uptimeS: Math.floor((atMs - this.startedAt) / 1000) + 86_400,
      eclipse,
      gps: position
        ? { latDeg: position.lat, lngDeg: position.lng, altM: position.altKm * 1000 }
        : null,
    });
  }
}
