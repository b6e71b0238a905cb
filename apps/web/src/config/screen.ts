// Screen geometry and table sizes of the web app (SPEC.md section 9): nothing outside apps/web
// reads them, so they live here rather than in @tinygs/contracts.

/** 16 bytes per hex row when the window is wider than this, else 9. */
export const HEX_WIDE_WINDOW_PX = 1290;
export const HEX_BYTES_PER_ROW_WIDE = 16;
export const HEX_BYTES_PER_ROW_NARROW = 9;

export const SATELLITE_TABLE_PAGE_SIZE = 50;
/** -1 shows all rows. */
export const SATELLITE_TABLE_PAGE_OPTIONS = [25, 50, 100, -1] as const;
