// The binary payload can be typed as base64 or hex; the other field follows while the input is valid.
import {
  BINARY_ERRORS,
  base64ToBytes,
  bytesToBase64,
  bytesToHex,
  hexToBytes,
  isBase64,
  isHex,
} from '@tinygs/contracts';

export interface BinaryFields {
  base64: string;
  hex: string;
  base64Error: string | null;
  hexError: string | null;
}

export const EMPTY_BINARY: BinaryFields = {
  base64: '',
  hex: '',
  base64Error: null,
  hexError: null,
};

export function editBase64(fields: BinaryFields, base64: string): BinaryFields {
  const text = base64.trim();
  if (!isBase64(text)) return { ...fields, base64, base64Error: BINARY_ERRORS.base64 };
  return { base64, hex: bytesToHex(base64ToBytes(text)), base64Error: null, hexError: null };
}

export function editHex(fields: BinaryFields, hex: string): BinaryFields {
  if (!isHex(hex)) return { ...fields, hex, hexError: BINARY_ERRORS.hex };
  return { hex, base64: bytesToBase64(hexToBytes(hex)), base64Error: null, hexError: null };
}
