import { fees } from './formats/fees';
import { fossasat2e } from './formats/fossasat_2e';
import { norby } from './formats/norby';
import { polytechUniverse1 } from './formats/polytech_universe_1';
import { satlla2b } from './formats/satlla_2b';
import { tinygsDemo } from './formats/tinygs_demo';
import { FORMAT_IDS, type FormatDecoder, type FormatId } from './types';

export const DECODERS: Readonly<Record<FormatId, FormatDecoder>> = {
  norby,
  satlla_2b: satlla2b,
  fossasat_2e: fossasat2e,
  fees,
  polytech_universe_1: polytechUniverse1,
  tinygs_demo: tinygsDemo,
};

/** Real satellites and their formats, by the satellite name stations report (`tele/rx` `satellite`). */
export const SATELLITE_FORMATS: Readonly<Record<string, FormatId>> = {
  Norbi: 'norby',
  'SATLLA-2B': 'satlla_2b',
  'FossaSat-2E1': 'fossasat_2e',
  'FossaSat-2E8': 'fossasat_2e',
  'FossaSat-2E11': 'fossasat_2e',
  'FossaSat-2E12': 'fossasat_2e',
  FEES: 'fees',
  'Polytech_Universe-1': 'polytech_universe_1',
};

const registered = new Map<string, FormatId>();

export function isFormatId(value: string): value is FormatId {
  return (FORMAT_IDS as readonly string[]).includes(value);
}

/**
 * Gives a satellite that is not in SATELLITE_FORMATS a decoder, e.g. the demo satellites of the
 * server's catalogue (`decoder: 'tinygs_demo'`). Registering again replaces the earlier choice.
 * Throws on an unknown format id, and on an attempt to change a real satellite's format.
 */
export function registerSatellite(satelliteName: string, formatId: string): void {
  if (!isFormatId(formatId)) {
    throw new RangeError(`unknown decoder format "${formatId}" (known: ${FORMAT_IDS.join(', ')})`);
  }
  const fixed = SATELLITE_FORMATS[satelliteName];
  if (fixed !== undefined && fixed !== formatId) {
    throw new Error(`${satelliteName} always uses the ${fixed} format`);
  }
  registered.set(satelliteName, formatId);
}

/** Removes a run-time registration (a catalogue entry went away). */
export function unregisterSatellite(satelliteName: string): void {
  registered.delete(satelliteName);
}

/** The format a satellite's frames are decoded with, or null when it has no decoder. */
export function decoderIdFor(satelliteName: string): FormatId | null {
  return SATELLITE_FORMATS[satelliteName] ?? registered.get(satelliteName) ?? null;
}
