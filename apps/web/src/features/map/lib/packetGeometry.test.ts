import { describe, expect, it } from 'vitest';
import { pickLocation } from './locationPick';
import { packetFootprintRadiusM } from './packetGeometry';

describe('packet map footprint circle', () => {
  it('is 500 times the footprint when the packet has one', () => {
    expect(packetFootprintRadiusM({ footPrint: 2400 })).toBe(1_200_000);
  });

  it('is 3000 m when the packet has no footprint', () => {
    expect(packetFootprintRadiusM({ footPrint: 0 })).toBe(3000);
    expect(packetFootprintRadiusM({ footPrint: undefined as unknown as number })).toBe(3000);
  });
});

describe('location picker', () => {
  it('keeps 3 decimals and folds longitude into -180..180', () => {
    expect(pickLocation({ lat: 40.42912345, lng: -4.24949 })).toEqual({ lat: 40.429, lng: -4.249 });
    expect(pickLocation({ lat: 10.00049, lng: 200.12345 })).toEqual({ lat: 10, lng: -159.877 });
    expect(pickLocation({ lat: -33.5, lng: -370 })).toEqual({ lat: -33.5, lng: -10 });
  });
});
