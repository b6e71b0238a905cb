// Station ids `{name}@{userId}` without a schema library: the map worker and the first paint of
// the web app use these without taking zod (ids.ts has the schemas and re-exports these).
// Only the character rule applies to ids: stations created before the length rule keep their names.
export const STATION_ID_PATTERN = /^([A-Za-z0-9_]+)@(\d{1,20})$/;

/** Names of old stations may be longer than new ones, never this long. */
export const STATION_ID_MAX_CHARS = 100;

export function formatStationId(name: string, userId: string | number): string {
  return `${name}@${String(userId)}`;
}

/** Splits `{name}@{userId}`; null when the text is not a valid station id. */
export function parseStationId(stationId: string): { name: string; userId: string } | null {
  const match = STATION_ID_PATTERN.exec(stationId);
  if (!match || match[1] === undefined || match[2] === undefined) return null;
  return { name: match[1], userId: match[2] };
}
