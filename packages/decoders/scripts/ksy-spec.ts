// The subset of the .ksy schema that the declaration generator reads.

export interface KsySwitch {
  'switch-on': unknown;
  cases: Record<string, string>;
}

export interface KsyAttribute {
  id?: string;
  doc?: string;
  type?: string | KsySwitch;
  size?: unknown;
  'size-eos'?: boolean;
  contents?: unknown;
  repeat?: string;
  if?: unknown;
  enum?: string;
  value?: unknown;
  /** TypeScript type of a value instance; defaults to `number`. */
  '-ts-type'?: string;
}

export interface KsyType {
  doc?: string;
  seq?: KsyAttribute[];
  types?: Record<string, KsyType>;
  instances?: Record<string, KsyAttribute>;
  enums?: Record<string, unknown>;
  params?: unknown;
}

export interface KsySpec extends KsyType {
  meta: { id: string; imports?: string[] };
}

export function isKsySpec(value: unknown): value is KsySpec {
  if (typeof value !== 'object' || value === null || !('meta' in value)) return false;
  const meta: unknown = value.meta;
  return typeof meta === 'object' && meta !== null && 'id' in meta && typeof meta.id === 'string';
}

/** Kaitai's JavaScript naming: `ses_charge_level_m_ah` -> `sesChargeLevelMAh`. */
export function lowerCamel(id: string): string {
  const [first = '', ...rest] = id.split('_');
  return first + rest.map(capitalise).join('');
}

/** Kaitai's class naming: `beacon_short` -> `BeaconShort`. */
export function upperCamel(id: string): string {
  return id.split('_').map(capitalise).join('');
}

function capitalise(part: string): string {
  return part.charAt(0).toUpperCase() + part.slice(1);
}
