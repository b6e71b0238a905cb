// Choosing a satellite in the Operate dialog: its first configuration is the default tuning
// (SPEC.md section 3), and the choice is remembered in the browser (satellite selection).
import { STORAGE_KEYS, type Satellite } from '@tinygs/contracts';
import { modemFormFromConf, type Extras, type ModemFormValues } from './modemForm';

/** Form values of the satellite's first configuration, or null when it has none. */
export function satelliteDefaults(
  satellite: Satellite,
): { values: ModemFormValues; extras: Extras } | null {
  const first = satellite.configurations[0];
  if (!first) return null;
  const chosen = modemFormFromConf(first, satellite.name);
  // The form names the satellite the way stations and packets do, whatever the configuration says.
  return { ...chosen, values: { ...chosen.values, sat: satellite.name } };
}

/** `LoRa 436.703 MHz`, one per configuration, without duplicates. */
export function configurationSummary(satellite: Satellite): string {
  return [...new Set(satellite.configurations.map((c) => `${c.mode} ${c.freq} MHz`))].join(', ');
}

export function rememberedSatellite(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEYS.satelliteSelection) || null;
  } catch {
    // Storage can be disabled (private mode, policies): nothing is remembered.
    return null;
  }
}

export function rememberSatellite(name: string): void {
  try {
    window.localStorage.setItem(STORAGE_KEYS.satelliteSelection, name);
  } catch {
    // see rememberedSatellite
  }
}
