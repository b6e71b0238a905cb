// /viewer?sat=<name>&gs=<lat>,<lng>: both optional; a malformed gs is ignored rather than guessed.

export interface ViewerParams {
  satellite: string | null;
  groundStation: { latDeg: number; lngDeg: number } | null;
}

export function parseViewerParams(search: string): ViewerParams {
  const params = new URLSearchParams(search);
  const satellite = params.get('sat')?.trim() || null;
  let groundStation: ViewerParams['groundStation'] = null;
  const gs = params.get('gs');
  if (gs) {
    const [lat, lng] = gs.split(',').map((v) => Number(v.trim()));
    if (
      lat !== undefined &&
      lng !== undefined &&
      Number.isFinite(lat) &&
      Number.isFinite(lng) &&
      Math.abs(lat) <= 90 &&
      Math.abs(lng) <= 180
    ) {
      groundStation = { latDeg: lat, lngDeg: lng };
    }
  }
  return { satellite, groundStation };
}
