import {
  HEX_BYTES_PER_ROW_NARROW,
  HEX_BYTES_PER_ROW_WIDE,
  HEX_WIDE_WINDOW_PX,
} from '../config/screen';

/** 16 bytes per row when the window is wider than 1290 px, else 9 (SPEC.md section 9). */
export function hexBytesPerRow(windowWidthPx: number): number {
  return windowWidthPx > HEX_WIDE_WINDOW_PX ? HEX_BYTES_PER_ROW_WIDE : HEX_BYTES_PER_ROW_NARROW;
}

export interface HexRow {
  offset: string;
  hex: string[];
  ascii: string;
}

function printable(byte: number): string {
  return byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : '.';
}

export function hexRows(bytes: Uint8Array, perRow: number): HexRow[] {
  const rows: HexRow[] = [];
  for (let start = 0; start < bytes.length; start += perRow) {
    const chunk = Array.from(bytes.subarray(start, start + perRow));
    rows.push({
      offset: start.toString(16).padStart(4, '0'),
      hex: chunk.map((b) => b.toString(16).padStart(2, '0').toUpperCase()),
      ascii: chunk.map(printable).join(''),
    });
  }
  return rows;
}
