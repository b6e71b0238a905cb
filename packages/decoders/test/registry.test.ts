import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  FORMAT_IDS,
  SATELLITE_FORMATS,
  decodeFrame,
  decoderIdFor,
  encodeDemoFrame,
  registerSatellite,
  unregisterSatellite,
} from '../src/index';

const DEMO = {
  frameCounter: 1,
  batteryMv: 4000,
  temperatureC: 20,
  txPowerMw: 50,
  solarCurrentMa: 0,
  uptimeS: 1,
};

describe('registry', () => {
  it('knows the real satellites by the names stations report', () => {
    expect(decoderIdFor('Norbi')).toBe('norby');
    expect(decoderIdFor('FossaSat-2E1')).toBe('fossasat_2e');
    expect(decoderIdFor('Polytech_Universe-1')).toBe('polytech_universe_1');
    expect(decoderIdFor('Unknown-Sat')).toBeNull();
    for (const formatId of Object.values(SATELLITE_FORMATS)) expect(FORMAT_IDS).toContain(formatId);
  });

  it('returns null for a satellite without a decoder', () => {
    expect(decodeFrame('Unknown-Sat', encodeDemoFrame(DEMO))).toBeNull();
  });

  it('decodes a catalogue satellite once it is registered, and stops when unregistered', () => {
    const frame = encodeDemoFrame(DEMO);
    expect(decodeFrame('Catalogue-Sat-7', frame)).toBeNull();
    registerSatellite('Catalogue-Sat-7', 'tinygs_demo');
    expect(decoderIdFor('Catalogue-Sat-7')).toBe('tinygs_demo');
    expect(decodeFrame('Catalogue-Sat-7', frame)?.tinygsSatellite).toBe('Catalogue-Sat-7');
    unregisterSatellite('Catalogue-Sat-7');
    expect(decodeFrame('Catalogue-Sat-7', frame)).toBeNull();
  });

  it('refuses an unknown format id and a different format for a real satellite', () => {
    expect(() => registerSatellite('Catalogue-Sat-8', 'no_such_format')).toThrow(/unknown decoder/);
    expect(() => registerSatellite('Norbi', 'tinygs_demo')).toThrow(/norby/);
    expect(() => registerSatellite('Norbi', 'norby')).not.toThrow();
  });

  it('returns null for CRC-error and test frames', () => {
    registerSatellite('Catalogue-Sat-9', 'tinygs_demo');
    for (const satellite of ['Norbi', 'SATLLA-2B', 'FEES', 'Catalogue-Sat-9']) {
      expect(decodeFrame(satellite, Buffer.from('Error_CRC', 'ascii'))).toBeNull();
      expect(decodeFrame(satellite, Buffer.from('TinyGS-test hello', 'ascii'))).toBeNull();
    }
  });

  it('never throws, whatever the bytes', () => {
    const satellites = [...Object.keys(SATELLITE_FORMATS), 'Catalogue-Sat-9'];
    fc.assert(
      fc.property(
        fc.constantFrom(...satellites),
        fc.uint8Array({ maxLength: 260 }),
        (satellite, bytes) => {
          const decoded = decodeFrame(satellite, bytes);
          expect(decoded === null || typeof decoded === 'object').toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
