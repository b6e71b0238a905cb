// Station configuration bodies of PUT /v1/station/{id}: the Edit form and the Operate dialog.
import { z } from 'zod';
import {
  AntennaBandSchema,
  AntennaTypeSchema,
  BandwidthKHzSchema,
  CodingRateSchema,
  CurrentLimitSchema,
  DescriptionSchema,
  FreqDevSchema,
  FskBitrateSchema,
  GainSchema,
  NoradSchema,
  PreambleLengthSchema,
  SpreadingFactorSchema,
  SyncWordSchema,
  TxPowerDbmSchema,
} from './rules';
import { AutoTuneSchema, FILTER_MAX_ITEMS, TLE_MAX_CHARS } from './entities';

/** Longer than any modem JSON the Operate dialog writes (a compact TLE included). */
export const MODEM_CONF_MAX_CHARS = 4096;

const operateCommon = {
  sat: z
    .string({ error: 'Satellite name is required' })
    .min(1, 'Satellite name is required')
    .max(100, 'Satellite name must be at most 100 characters' /* ours */),
  NORAD: NoradSchema,
  /** MHz */
  freq: z
    .number({ error: 'Must be a number' })
    .positive('Frequency must be positive')
    .max(3000, 'Frequency must be at most 3000 MHz'),
  pwr: TxPowerDbmSchema,
  filter: z.array(z.number().int().min(0).max(255)).max(FILTER_MAX_ITEMS).optional(),
  tle: z.string().max(TLE_MAX_CHARS).optional(),
};

/** Manual LoRa tuning within MODEM_RANGES. Extra firmware keys are kept. */
export const OperateLoRaModemConfSchema = z.looseObject({
  mode: z.literal('LoRa'),
  ...operateCommon,
  bw: BandwidthKHzSchema,
  sf: SpreadingFactorSchema,
  cr: CodingRateSchema,
  sw: SyncWordSchema,
  pl: PreambleLengthSchema,
  cl: CurrentLimitSchema,
  gain: GainSchema,
  crc: z.boolean({ error: 'CRC must be true or false' }),
  fldro: z.union([z.literal(0), z.literal(1), z.literal(2)], { error: 'FLDRO must be 0, 1 or 2' }),
  iIQ: z.boolean().optional(),
  len: z.number().int().min(0).max(255).optional(),
});

/**
 * Manual FSK tuning. The 4-12 preamble range of the form is a LoRa rule: real FSK satellite
 * configurations use longer preambles (PROTOCOL.md example: pl 32), so FSK only needs a 16-bit count.
 */
export const OperateFskModemConfSchema = z.looseObject({
  mode: z.literal('FSK'),
  ...operateCommon,
  br: FskBitrateSchema,
  fd: FreqDevSchema,
  /** receive bandwidth, kHz */
  bw: z.number().positive().max(500).optional(),
  pl: z.number().int('Preamble length must be a whole number').min(0).max(65_535),
  ook: z.union(
    [z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(255)],
    {
      error: 'Data shaping must be 0-4 (or 255 for OOK)',
    },
  ),
  fsw: z.array(z.number().int().min(0).max(255)).max(8, 'At most 8 sync word bytes').optional(),
  len: z.number().int().min(0).max(255).optional(),
});

export const OperateModemConfSchema = z.discriminatedUnion(
  'mode',
  [OperateLoRaModemConfSchema, OperateFskModemConfSchema],
  {
    error: 'mode must be LoRa or FSK',
  },
);
export type OperateModemConf = z.infer<typeof OperateModemConfSchema>;

export const MODEM_CONF_REQUIRED_ERROR = 'modem_conf is required when auto tune is disabled';
export const MODEM_CONF_JSON_ERROR = 'modem_conf must be JSON text';

/** PUT /v1/station/{id} from the Operate dialog. */
export const StationOperateBodySchema = z
  .object({
    autoTune: AutoTuneSchema,
    /** modem JSON as text; required with autoTune 0 */
    modem_conf: z
      .string()
      .max(MODEM_CONF_MAX_CHARS, {
        error: 'modem_conf must be at most 4096 characters' /* ours */,
        abort: true,
      })
      .optional(),
  })
  .superRefine((body, ctx) => {
    if (body.autoTune !== 0) return;
    if (body.modem_conf === undefined || body.modem_conf.trim() === '') {
      ctx.addIssue({ code: 'custom', path: ['modem_conf'], message: MODEM_CONF_REQUIRED_ERROR });
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.modem_conf);
    } catch {
      ctx.addIssue({ code: 'custom', path: ['modem_conf'], message: MODEM_CONF_JSON_ERROR });
      return;
    }
    const result = OperateModemConfSchema.safeParse(parsed);
    if (result.success) return;
    for (const issue of result.error.issues) {
      ctx.addIssue({
        code: 'custom',
        path: ['modem_conf', ...issue.path.map(String)],
        message: issue.message,
      });
    }
  });
export type StationOperateBody = z.infer<typeof StationOperateBodySchema>;

export const BETA_NEEDS_AUTO_UPDATE_ERROR =
  'Beta firmware can only be enabled when auto update is on';

/** PUT /v1/station/{id} from the Edit form. */
export const StationEditBodySchema = z
  .object({
    description: DescriptionSchema,
    antenna: AntennaTypeSchema,
    antennaBand: AntennaBandSchema,
    test: z.boolean(),
    autoUpdate: z.boolean(),
    beta: z.boolean(),
    /** keep this station's frames from SatNOGS DB (forwarding is the network's, opt-in per satellite); absent: unchanged */
    satnogsOptOut: z.boolean().optional(),
  })
  .refine((body) => !body.beta || body.autoUpdate, {
    message: BETA_NEEDS_AUTO_UPDATE_ERROR,
    path: ['beta'],
  });
export type StationEditBody = z.infer<typeof StationEditBodySchema>;

/** Either body; `parseStationUpdateBody` picks the right one for clear error messages. */
export const StationUpdateBodySchema = z.union([StationOperateBodySchema, StationEditBodySchema]);
export type StationUpdateBody = z.infer<typeof StationUpdateBodySchema>;

export type ParsedStationUpdate =
  | { success: true; kind: 'operate'; data: StationOperateBody }
  | { success: true; kind: 'edit'; data: StationEditBody }
  | { success: false; kind: 'operate' | 'edit'; error: z.ZodError };

/** A body carrying `autoTune` is an Operate body, anything else an Edit body. */
export function parseStationUpdateBody(body: unknown): ParsedStationUpdate {
  if (typeof body === 'object' && body !== null && 'autoTune' in body) {
    const result = StationOperateBodySchema.safeParse(body);
    return result.success
      ? { success: true, kind: 'operate', data: result.data }
      : { success: false, kind: 'operate', error: result.error };
  }
  const result = StationEditBodySchema.safeParse(body);
  return result.success
    ? { success: true, kind: 'edit', data: result.data }
    : { success: false, kind: 'edit', error: result.error };
}
