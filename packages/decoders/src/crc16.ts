// The CRC-16 models the formats use, from the `crc` library's table-driven calculators.
import crc16ccitt from 'crc/calculators/crc16ccitt';
import crc16kermit from 'crc/calculators/crc16kermit';

/** CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor). */
export function crc16CcittFalse(bytes: Uint8Array): number {
  return crc16ccitt(bytes);
}

/**
 * CRC-16/X-25 (HDLC): the reflected poly 0x1021 of CRC-16/KERMIT, started at 0xFFFF instead of 0
 * and inverted at the end.
 */
export function crc16X25(bytes: Uint8Array): number {
  return (crc16kermit(bytes, 0xffff) ^ 0xffff) & 0xffff;
}
