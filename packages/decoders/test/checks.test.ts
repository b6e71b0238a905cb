// Frame checks: the captured frames of every real satellite pass them; a corrupted copy of each
// (a flipped byte, a truncated frame) is refused with the envelope only.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DECODERS,
  SATELLITE_FORMATS,
  crc16,
  decodeFrame,
  decodeFrameChecked,
  encodeDemoFrame,
  range,
  registerSatellite,
  unregisterSatellite,
  type CheckKind,
} from '../src/index';
import { capturedPackets, frameOf, type CapturedPacket } from './captured';

const REAL_SATELLITES = Object.keys(SATELLITE_FORMATS);

/**
 * Captured frames that fail their checks, and why: a Norby frame whose CRC bytes arrived damaged
 * (the same frame, received intact by another station, is in the capture too), and two frames
 * filed under Polytech_Universe-1 that are not its frames at all (55 and 195 bytes of noise; the
 * live network decoded their first 42 bytes into implausible numbers).
 */
const HONEST_FAILURES: Record<string, CheckKind> = {
  'a5781b32-cd4a-4fe8-aa02-65e7947070de': 'crc',
  '16474589-4aba-4aab-b70f-e8d69fb0b68a': 'magic',
  '5b567c15-23b6-4a77-82c9-a65f7958ed33': 'magic',
};

/** FossaSat-2E1 was not in the capture: a sibling's frame with its callsign, as the simulator does. */
function withCallsign(frame: Uint8Array, callsign: string): Uint8Array {
  const copy = frame.slice();
  copy.set(Buffer.from(callsign, 'latin1'), 0);
  return copy;
}

function goodFrameOf(satellite: string, packets: CapturedPacket[]): Uint8Array {
  const own = packets.find((p) => p.satellite === satellite && !(p.id in HONEST_FAILURES));
  if (own) return frameOf(own);
  const sibling = packets.find((p) => p.satellite === 'FossaSat-2E8');
  if (satellite === 'FossaSat-2E1' && sibling) return withCallsign(frameOf(sibling), 'FO001');
  throw new Error(`no captured frame of ${satellite}`);
}

/**
 * One corrupted byte per satellite, each in a place the satellite's checks cover: data under the
 * CRC (Norby, FEES), the exponent of FossaSat's temperature, the high byte of SATLLA-2B's battery
 * voltage, Polytech's battery temperature.
 */
const FLIPS: Record<string, { offset: number; xor: number; failed: CheckKind }> = {
  Norbi: { offset: 60, xor: 0x01, failed: 'crc' },
  FEES: { offset: 20, xor: 0x01, failed: 'crc' },
  'FossaSat-2E1': { offset: 9, xor: 0x0c, failed: 'range' },
  'FossaSat-2E8': { offset: 9, xor: 0x0c, failed: 'range' },
  'FossaSat-2E11': { offset: 9, xor: 0x0c, failed: 'range' },
  'FossaSat-2E12': { offset: 9, xor: 0x0c, failed: 'range' },
  'SATLLA-2B': { offset: 7, xor: 0xf0, failed: 'range' },
  'Polytech_Universe-1': { offset: 32, xor: 0x80, failed: 'range' },
};

/** What the live network shows for each satellite's frames, mW. */
const TX_POWER_MW: Record<string, number> = {
  Norbi: 2000,
  FEES: 500,
  'FossaSat-2E1': 158,
  'FossaSat-2E8': 158,
  'FossaSat-2E11': 158,
  'FossaSat-2E12': 158,
  'SATLLA-2B': 63,
  'Polytech_Universe-1': 800,
};

function envelope(satellite: string) {
  const txPower = TX_POWER_MW[satellite];
  return {
    payload: { tinygsSatellite: satellite, tinygsTxPower: txPower },
    tinygsSatellite: satellite,
    telemetry: false,
  };
}

describe('declared checks', () => {
  it('every real satellite’s format declares checks and the power the network shows', () => {
    expect(Object.keys(FLIPS).sort()).toEqual([...REAL_SATELLITES].sort());
    for (const satellite of REAL_SATELLITES) {
      const checks = DECODERS[SATELLITE_FORMATS[satellite] ?? 'tinygs_demo'].checks;
      expect(checks?.frame.length, satellite).toBeGreaterThan(0);
      expect(checks?.txPowerMw, satellite).toBe(TX_POWER_MW[satellite]);
    }
  });

  it('passes the captured frames: 797 of 800, the other three honestly damaged', () => {
    const refused: Record<string, CheckKind> = {};
    let passed = 0;
    for (const packet of capturedPackets()) {
      const frame = frameOf(packet);
      const checked = decodeFrameChecked(packet.satellite, frame);
      if (checked.outcome === 'unverified') {
        refused[packet.id] = checked.failed;
        expect(checked.parsed).toEqual(envelope(packet.satellite));
      } else {
        // Checks never change what a good frame decodes to.
        expect(checked).toEqual({
          outcome: 'decoded',
          parsed: decodeFrame(packet.satellite, frame),
        });
        passed += 1;
      }
    }
    expect(refused).toEqual(HONEST_FAILURES);
    expect(passed).toBe(797);
  });

  describe.each(REAL_SATELLITES)('%s', (satellite) => {
    const good = goodFrameOf(satellite, capturedPackets());

    it('decodes a good frame', () => {
      expect(decodeFrameChecked(satellite, good).outcome).toBe('decoded');
    });

    it('refuses a flipped byte with the envelope only', () => {
      const flip = FLIPS[satellite];
      if (!flip) throw new Error(`no flip for ${satellite}`);
      const bad = good.slice();
      bad[flip.offset] = (bad[flip.offset] ?? 0) ^ flip.xor;
      // Unchecked, the same bytes decode to a payload of implausible numbers.
      expect(decodeFrame(satellite, bad)).not.toBeNull();
      const checked = decodeFrameChecked(satellite, bad);
      expect(checked).toMatchObject({ outcome: 'unverified', failed: flip.failed });
      expect(checked.parsed).toEqual(envelope(satellite));
    });

    it('refuses a truncated frame with the envelope only', () => {
      const checked = decodeFrameChecked(satellite, good.subarray(0, good.length - 1));
      expect(checked).toMatchObject({ outcome: 'unverified', failed: 'length' });
      expect(checked.parsed).toEqual(envelope(satellite));
    });
  });

  // Norby's link header is outside its CRC: its length, addresses and type are checked as
  // constants, its transaction number (bytes 9-10, a counter) by nothing.
  const UNCHECKED: Record<string, number[]> = { Norbi: [9, 10], FEES: [] };

  it('refuses every single-bit error in a CRC-protected frame (Norby, FEES)', () => {
    const packets = capturedPackets();
    for (const [satellite, unchecked] of Object.entries(UNCHECKED)) {
      const good = goodFrameOf(satellite, packets);
      const passed: string[] = [];
      for (let bit = 0; bit < good.length * 8; bit += 1) {
        if (unchecked.includes(bit >> 3)) continue;
        const bad = good.slice();
        bad[bit >> 3] = (bad[bit >> 3] ?? 0) ^ (1 << (bit & 7));
        if (decodeFrameChecked(satellite, bad).outcome !== 'unverified') passed.push(`bit ${bit}`);
      }
      expect(passed, satellite).toEqual([]);
    }
  });

  it('never throws on arbitrary bytes, and refuses with nothing but the envelope', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...REAL_SATELLITES),
        fc.uint8Array({ maxLength: 300 }),
        (satellite, frame) => {
          const checked = decodeFrameChecked(satellite, frame);
          if (checked.outcome === 'unverified') expect(checked.parsed).toEqual(envelope(satellite));
          // Random bytes do not pass a CRC together with the header constants.
          if (satellite === 'Norbi' || satellite === 'FEES')
            expect(checked.outcome).not.toBe('decoded');
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('refuses a FossaSat frame under another FossaSat’s name (callsign)', () => {
    const frame = goodFrameOf('FossaSat-2E8', capturedPackets());
    expect(decodeFrameChecked('FossaSat-2E12', frame)).toMatchObject({
      outcome: 'unverified',
      failed: 'magic',
      reason: 'byte 3 is 0x30, expected 0x31',
    });
  });

  it('leaves frames that are not the satellite’s telemetry undecoded, not unverified', () => {
    const norby = goodFrameOf('Norbi', capturedPackets());
    expect(decodeFrameChecked('Unknown-Sat', norby)).toEqual({
      outcome: 'undecoded',
      parsed: null,
    });
    const crcError = Buffer.from('Error_CRC', 'latin1');
    expect(decodeFrameChecked('Norbi', crcError).outcome).toBe('undecoded');
    const test = Buffer.from('TinyGS-test hello', 'latin1');
    expect(decodeFrameChecked('Norbi', test).outcome).toBe('undecoded');
    // SATLLA-2B message types without a published layout decode to nothing, as before.
    const satlla = goodFrameOf('SATLLA-2B', capturedPackets()).slice();
    satlla[2] = 3;
    expect(decodeFrameChecked('SATLLA-2B', satlla).outcome).toBe('undecoded');
  });

  it('applies no checks to a format that declares none (tinygs_demo verifies its own CRC)', () => {
    registerSatellite('Demo-Checks', 'tinygs_demo');
    try {
      const frame = encodeDemoFrame({
        frameCounter: 7,
        batteryMv: 3900,
        temperatureC: 20,
        txPowerMw: 100,
        solarCurrentMa: 0,
        uptimeS: 60,
      });
      expect(decodeFrameChecked('Demo-Checks', frame)).toEqual({
        outcome: 'decoded',
        parsed: decodeFrame('Demo-Checks', frame),
      });
      const bad = frame.slice();
      bad[6] = (bad[6] ?? 0) ^ 0xff;
      expect(decodeFrameChecked('Demo-Checks', bad).outcome).toBe('undecoded');
    } finally {
      unregisterSatellite('Demo-Checks');
    }
  });
});

describe('check builders', () => {
  it('compute the catalogued CRC-16 check values', () => {
    const digits = Buffer.from('123456789', 'latin1');
    const x25 = Buffer.concat([digits, Buffer.from([0x6e, 0x90])]);
    const ccitt = Buffer.concat([digits, Buffer.from([0x29, 0xb1])]);
    expect(crc16('CRC-16/X-25').verify(x25, '')).toBeNull();
    expect(crc16('CRC-16/CCITT-FALSE', { order: 'be' }).verify(ccitt, '')).toBeNull();
    expect(crc16('CRC-16/CCITT-FALSE').verify(ccitt, '')).toBe(
      'CRC-16/CCITT-FALSE is 0x29b1, frame says 0xb129',
    );
  });

  it('range: bounds inclusive, null only when declared nullable, missing fails', () => {
    const decoded = { payload: { t: -40, off: null } };
    expect(range('payload.t', -40, 85).verify(decoded)).toBeNull();
    expect(range('payload.t', -39, 85).verify(decoded)).toBe('payload.t is -40, outside -39..85');
    expect(range('payload.off', 0, 1).verify(decoded)).toBe('payload.off is null');
    expect(range('payload.off', 0, 1, { nullable: true }).verify(decoded)).toBeNull();
    expect(range('payload.gone', 0, 1).verify(decoded)).toBe('payload.gone is missing');
  });
});
