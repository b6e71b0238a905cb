// What the viewer is showing, published on window.__viewerState after every rendered frame so that
// tests (and a page embedding the viewer) can check it. The satellite's position is read back from
// the mesh the frame drew, converted from scene coordinates to geodetic, never propagated again
// here: it reports what the user sees, errors in the drawing included.

export type ViewerStatus =
  | 'loading'
  | 'showing'
  | 'no-satellite'
  | 'unknown-satellite'
  | 'tle-missing'
  | 'no-position'
  | 'no-webgl'
  | 'error';

export interface DrawnSatellite {
  /** The instant (ms since the Unix epoch) the drawn position belongs to. */
  timeMs: number;
  lat: number;
  lng: number;
  altKm: number;
  /** Centre of the satellite marker in CSS pixels of the canvas; only meaningful when in view. */
  screenX: number;
  screenY: number;
}

export interface ViewerState {
  status: ViewerStatus;
  /** The element set's name, as the info panel shows it. */
  satellite: string | null;
  /** Frames rendered since the page loaded. */
  frames: number;
  /** The satellite marker of the last rendered frame; null while none is drawn. */
  drawn: DrawnSatellite | null;
}

declare global {
  interface Window {
    __viewerState?: ViewerState;
  }
}

const state: ViewerState = { status: 'loading', satellite: null, frames: 0, drawn: null };

function publish(): void {
  window.__viewerState = { ...state, drawn: state.drawn && { ...state.drawn } };
}

export function setViewerStatus(status: ViewerStatus, satellite: string | null = null): void {
  state.status = status;
  state.satellite = satellite;
  publish();
}

export function recordFrame(drawn: DrawnSatellite | null): void {
  state.frames += 1;
  state.drawn = drawn;
  publish();
}

publish();
