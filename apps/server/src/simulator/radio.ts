// A link budget for simulated receptions: free-space path loss over the slant range sets the RSSI,
// the receiver's noise floor in the modem bandwidth sets the SNR, and the modem's demodulation
// floor decides how likely the frame is decoded. Numbers are typical of amateur LoRa/FSK gear.
import type { ModemConf } from '@tinygs/contracts';
import type { SimLook } from './sky';

export interface SimReception {
  rssiDbm: number;
  snrDb: number;
  frequencyErrorHz: number;
  heard: boolean;
}

/** Stations listen to a satellite above this elevation (the liveliness rule). */
export const MIN_ELEVATION_DEG = 5;
const SATELLITE_EIRP_DBM = 27;
const BALLOON_EIRP_DBM = 17;
const RECEIVER_NOISE_FIGURE_DB = 6;
// Above the horizon rule a frame is heard at least this often, so that passes always produce traffic.
const MIN_HEARD_PROBABILITY = 0.5;

function gaussian(random: () => number): number {
  const u = Math.max(1e-12, random());
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

function bandwidthKHz(config: ModemConf): number {
  if (config.mode === 'LoRa') return config.bw ?? 125;
  return config.bw ?? 2 * (config.fd ?? 5) + (config.br ?? 9.6);
}

function demodulationFloorDb(config: ModemConf): number {
  // LoRa demodulates below the noise floor: -7.5 dB at SF7, 2.5 dB lower per SF step.
  if (config.mode === 'LoRa') return -7.5 - 2.5 * ((config.sf ?? 10) - 7);
  return 8;
}

export function simulateReception(
  look: SimLook,
  config: ModemConf,
  balloon: boolean,
  random: () => number = Math.random,
): SimReception {
  const pathLossDb =
    20 * Math.log10(Math.max(1, look.rangeKm)) + 20 * Math.log10(config.freq) + 32.44;
  const rssiDbm =
    (balloon ? BALLOON_EIRP_DBM : SATELLITE_EIRP_DBM) - pathLossDb + 2 * gaussian(random);
  const noiseFloorDbm =
    -174 + 10 * Math.log10(bandwidthKHz(config) * 1000) + RECEIVER_NOISE_FIGURE_DB;
  const snrDb = rssiDbm - noiseFloorDbm;
  const decodeProbability = 1 / (1 + Math.exp(-(snrDb - demodulationFloorDb(config)) / 1.5));
  const heard =
    look.elevationDeg > MIN_ELEVATION_DEG &&
    random() < Math.max(MIN_HEARD_PROBABILITY, decodeProbability);
  return {
    rssiDbm: Math.round(rssiDbm * 10) / 10,
    snrDb: Math.round(snrDb * 100) / 100,
    frequencyErrorHz: Math.round(1500 * gaussian(random)),
    heard,
  };
}
