import { describe, expect, it } from 'vitest';
import {
  ANTENNA_TYPES,
  AUTO_TUNE_OPTIONS,
  FREQUENCY_BANDS,
  PICTURE_MAX_BYTES,
  SATELLITE_LIST_FILTERS,
  TX_POWER_GROUPS,
  bandOfFrequency,
  bytesToBase64,
  isCrcErrorRaw,
  isTestFrameRaw,
  latin1ToBytes,
  txPowerGroup,
  wifiSignalLabel,
} from '../src/index';

describe('bandOfFrequency', () => {
  it.each([
    [137.5, 137],
    [436.7, 433],
    [868.0, 900],
    [915, 900],
    [2403, 2400],
  ])('%d MHz is band %d', (freq, band) => {
    expect(bandOfFrequency(freq)).toBe(band);
  });
  it('bounds are exclusive', () => {
    for (const edge of [130, 300, 400, 550, 800, 950, 2100, 2500])
      expect(bandOfFrequency(edge)).toBeNull();
    expect(bandOfFrequency(130.001)).toBe(137);
    expect(bandOfFrequency(299.999)).toBe(137);
    expect(bandOfFrequency(400.001)).toBe(433);
    expect(bandOfFrequency(549.999)).toBe(433);
    expect(bandOfFrequency(800.001)).toBe(900);
    expect(bandOfFrequency(949.999)).toBe(900);
    expect(bandOfFrequency(2100.001)).toBe(2400);
    expect(bandOfFrequency(2499.999)).toBe(2400);
  });
  it('is null between bands', () => {
    expect(bandOfFrequency(350)).toBeNull();
    expect(bandOfFrequency(1500)).toBeNull();
  });
  it('labels the 900 band 868-915', () => {
    expect(FREQUENCY_BANDS.find((b) => b.band === 900)?.label).toBe('868-915');
  });
});

describe('wifiSignalLabel', () => {
  it.each([
    [-30, 'Very Good'],
    [-60, 'Very Good'],
    [-61, 'Good'],
    [-70, 'Good'],
    [-71, 'Low'],
    [-80, 'Low'],
    [-81, 'Very low'],
    [null, 'None'],
    [undefined, 'None'],
  ] as const)('%s dBm is %s', (rssi, label) => {
    expect(wifiSignalLabel(rssi)).toBe(label);
  });
});

describe('txPowerGroup', () => {
  const withPower = (mw: number) => ({ raw: 'AAEC', parsed: { payload: { tinygsTxPower: mw } } });
  it('groups by mW with inclusive upper ends', () => {
    expect(txPowerGroup(withPower(100))).toBe('<=100');
    expect(txPowerGroup(withPower(101))).toBe('101-500');
    expect(txPowerGroup(withPower(500))).toBe('101-500');
    expect(txPowerGroup(withPower(501))).toBe('501-1000');
    expect(txPowerGroup(withPower(1000))).toBe('501-1000');
    expect(txPowerGroup(withPower(2000))).toBe('1001-2000');
    expect(txPowerGroup(withPower(2001))).toBe('>2000');
  });
  it('uses txPower of a packet detail before the payload field', () => {
    expect(
      txPowerGroup({ raw: 'AAEC', txPower: 3000, parsed: { payload: { tinygsTxPower: 50 } } }),
    ).toBe('>2000');
  });
  it('puts packets without power in no-power and CRC errors in crc-error', () => {
    expect(txPowerGroup({ raw: 'AAEC', parsed: { payload: {} } })).toBe('no-power');
    expect(txPowerGroup({ raw: 'AAEC' })).toBe('no-power');
    const crcRaw = bytesToBase64(latin1ToBytes('Error_CRC'));
    expect(txPowerGroup({ raw: crcRaw, parsed: { payload: { tinygsTxPower: 50 } } })).toBe(
      'crc-error',
    );
    expect(TX_POWER_GROUPS.find((g) => g.id === 'no-power')?.label).toBe('No Telemetry');
  });
  it('recognises raw markers', () => {
    expect(isCrcErrorRaw(bytesToBase64(latin1ToBytes('Error_CRC')))).toBe(true);
    expect(isTestFrameRaw(bytesToBase64(latin1ToBytes('TinyGS-test hello')))).toBe(true);
    expect(isTestFrameRaw(bytesToBase64(latin1ToBytes('TinyGS-tes')))).toBe(false);
    expect(isCrcErrorRaw('not base64!')).toBe(false);
  });
});

describe('catalogue constants', () => {
  it('lists the 24 antenna types in spec order', () => {
    expect(ANTENNA_TYPES).toHaveLength(24);
    expect(ANTENNA_TYPES[0]).toBe('Dipole');
    expect(ANTENNA_TYPES[23]).toBe('Yagi-Uda Cross');
  });
  it('auto-tune options end with Disabled = 0', () => {
    expect(AUTO_TUNE_OPTIONS.map((o) => o.value)).toEqual([137, 433, 900, 2400, 0]);
    expect(AUTO_TUNE_OPTIONS.at(-1)?.label).toBe('Disabled');
  });
  it('satellite list filters follow the spec defaults', () => {
    expect(SATELLITE_LIST_FILTERS.future.statuses).toEqual(['Future', 'Experimental']);
    expect(SATELLITE_LIST_FILTERS.starlink).toEqual({ statuses: ['SupportedSL'], band: 137 });
    expect(SATELLITE_LIST_FILTERS.fsk).toEqual({ statuses: ['Supported'], band: 433, mode: 'FSK' });
    expect(SATELLITE_LIST_FILTERS.balloons.statuses).toEqual(['Balloon', 'BInactive']);
  });
  it('picture limit is 3 MB', () => {
    expect(PICTURE_MAX_BYTES).toBe(3 * 1024 * 1024);
  });
});
