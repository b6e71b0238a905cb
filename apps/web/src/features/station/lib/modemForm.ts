// The Operate dialog's manual tuning form: text fields <-> modem JSON (PROTOCOL.md), checked with
// the contracts' OperateModemConfSchema (MODEM_RANGES of SPEC.md section 5).
import {
  AUTO_TUNE_VALUES,
  OperateModemConfSchema,
  type AutoTuneValue,
  type ModemMode,
  type StationFull,
} from '@tinygs/contracts';

export interface ModemFormValues {
  mode: ModemMode;
  sat: string;
  NORAD: string;
  /** MHz */
  freq: string;
  /** dBm */
  pwr: string;
  /** kHz */
  bw: string;
  sf: string;
  cr: string;
  sw: string;
  pl: string;
  cl: string;
  gain: string;
  crc: boolean;
  fldro: 0 | 1 | 2;
  /** kbps */
  br: string;
  /** kHz */
  fd: string;
  /** data shaping */
  ook: number;
}
export type ModemField = keyof ModemFormValues;

/** Firmware keys the form does not edit but must not drop (filters, TLE, sync bytes...). */
export type Extras = Record<string, unknown>;

const LORA_DEFAULTS: ModemFormValues = {
  mode: 'LoRa',
  sat: '',
  NORAD: '',
  freq: '',
  pwr: '5',
  bw: '125',
  sf: '10',
  cr: '5',
  sw: '18',
  pl: '8',
  cl: '120',
  gain: '0',
  crc: true,
  fldro: 2,
  br: '9.6',
  fd: '5',
  ook: 0,
};

const text = (v: unknown, fallback: string) =>
  typeof v === 'number' && Number.isFinite(v) ? String(v) : fallback;

/** The station's current modem JSON as form values plus the keys the form leaves alone. */
export function modemFormFromStation(station: StationFull): {
  values: ModemFormValues;
  extras: Extras;
} {
  return modemFormFromConf(parseModemConf(station.modem_conf), station.satellite ?? '');
}

/** A modem JSON text as an object; empty when missing or broken. */
export function parseModemConf(text: string | null | undefined): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text ?? '');
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // no or broken modem_conf: start from the defaults
  }
  return {};
}

/**
 * Form values of one modem JSON object: a station's modem_conf, or a satellite's configuration
 * (whose further fields are the defaults, SPEC.md section 3). Missing fields take LoRa defaults.
 */
export function modemFormFromConf(
  conf: Record<string, unknown>,
  fallbackSat: string,
): { values: ModemFormValues; extras: Extras } {
  const d = LORA_DEFAULTS;
  const fldro = conf.fldro === 0 || conf.fldro === 1 || conf.fldro === 2 ? conf.fldro : d.fldro;
  const values: ModemFormValues = {
    mode: conf.mode === 'FSK' ? 'FSK' : 'LoRa',
    sat: typeof conf.sat === 'string' && conf.sat !== '' ? conf.sat : fallbackSat,
    NORAD: text(conf.NORAD, d.NORAD),
    freq: text(conf.freq, d.freq),
    pwr: text(conf.pwr, d.pwr),
    // FSK receive bandwidth is optional: none in the JSON stays none.
    bw: text(conf.bw, conf.mode === 'FSK' ? '' : d.bw),
    sf: text(conf.sf, d.sf),
    cr: text(conf.cr, d.cr),
    sw: text(conf.sw, d.sw),
    pl: text(conf.pl, d.pl),
    cl: text(conf.cl, d.cl),
    gain: text(conf.gain, d.gain),
    crc: typeof conf.crc === 'boolean' ? conf.crc : d.crc,
    fldro,
    br: text(conf.br, d.br),
    fd: text(conf.fd, d.fd),
    ook: typeof conf.ook === 'number' ? conf.ook : d.ook,
  };
  const extras: Extras = {};
  for (const key of ['filter', 'tle', 'fsw', 'len', 'iIQ'])
    if (conf[key] !== undefined) extras[key] = conf[key];
  return { values, extras };
}

/** Numeric text as a number; blank or junk becomes NaN so the schema reports 'Must be a number'. */
function num(value: string): number {
  return value.trim() === '' ? Number.NaN : Number(value);
}

/** The modem JSON the form describes: mode, sat, NORAD, freq, bw, pl, pwr and the mode's fields. */
export function modemConfOf(values: ModemFormValues, extras: Extras): Record<string, unknown> {
  const common = {
    mode: values.mode,
    sat: values.sat.trim(),
    NORAD: num(values.NORAD),
    freq: num(values.freq),
    pl: num(values.pl),
    pwr: num(values.pwr),
  };
  const keep = (keys: string[]) =>
    Object.fromEntries(keys.filter((k) => extras[k] !== undefined).map((k) => [k, extras[k]]));
  if (values.mode === 'LoRa') {
    return {
      ...keep(['filter', 'tle', 'len', 'iIQ']),
      ...common,
      bw: num(values.bw),
      sf: num(values.sf),
      cr: num(values.cr),
      sw: num(values.sw),
      cl: num(values.cl),
      gain: num(values.gain),
      crc: values.crc,
      fldro: values.fldro,
    };
  }
  return {
    ...keep(['filter', 'tle', 'len', 'fsw']),
    ...common,
    // FSK receive bandwidth is optional: left empty, the firmware picks one for the bitrate.
    ...(values.bw.trim() === '' ? {} : { bw: num(values.bw) }),
    br: num(values.br),
    fd: num(values.fd),
    ook: values.ook,
  };
}

export type ModemErrors = Partial<Record<ModemField, string>>;

export function modemErrors(values: ModemFormValues, extras: Extras): ModemErrors {
  const result = OperateModemConfSchema.safeParse(modemConfOf(values, extras));
  if (result.success) return {};
  const errors: ModemErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as ModemField | undefined;
    if (field && errors[field] === undefined) errors[field] = issue.message;
  }
  return errors;
}

export function autoTuneOf(station: StationFull): AutoTuneValue {
  const value = station.autoTune;
  return AUTO_TUNE_VALUES.find((v) => v === value) ?? 0;
}
