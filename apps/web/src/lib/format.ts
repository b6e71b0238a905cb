// Display formatting shared by every screen. Dates are shown in the visitor's locale and zone.

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const integer = new Intl.NumberFormat('en-US');

export function formatDateTime(epochMs: number | null | undefined): string {
  return typeof epochMs === 'number' && Number.isFinite(epochMs)
    ? dateTime.format(new Date(epochMs))
    : 'Never';
}

export function formatDate(epochMs: number | null | undefined): string {
  return typeof epochMs === 'number' && Number.isFinite(epochMs)
    ? dateOnly.format(new Date(epochMs))
    : 'Unknown';
}

export function formatCount(value: number): string {
  return integer.format(value);
}

/** Fixed decimals, or an en dash for a missing value. */
export function formatNumber(value: number | null | undefined, decimals: number): string {
  return typeof value === 'number' && Number.isFinite(value) ? value.toFixed(decimals) : '–';
}
