import { lookAngles, subSatellitePoint } from '@tinygs/orbit';
import { parseViewerParams } from './params';
import { createGlobeScene } from './scene';
import { loadTle } from './tles';
import { setViewerStatus } from './viewerState';

const UPDATE_MS = 1000;
const info = document.getElementById('info') as HTMLDivElement;
const container = document.getElementById('globe') as HTMLDivElement;

/** three.js needs WebGL 2; asking first avoids the renderer's own console error and exception. */
function hasWebGl2(): boolean {
  return document.createElement('canvas').getContext('webgl2') !== null;
}

async function main(): Promise<void> {
  const { satellite, groundStation } = parseViewerParams(window.location.search);
  if (!hasWebGl2()) {
    info.textContent = 'This browser cannot show the 3D view (WebGL 2 is unavailable)';
    setViewerStatus('no-webgl');
    return;
  }
  const scene = createGlobeScene(container, groundStation);
  if (!satellite) {
    info.textContent = 'No satellite selected';
    setViewerStatus('no-satellite');
    return;
  }
  const tle = await loadTle(satellite);
  if (!tle) {
    info.textContent =
      tle === null ? `${satellite}\nTLE missing` : `${satellite}\nUnknown satellite`;
    setViewerStatus(tle === null ? 'tle-missing' : 'unknown-satellite', satellite);
    return;
  }
  const update = () => {
    const now = Date.now();
    scene.updateSatellite(tle, now);
    const p = subSatellitePoint(tle, now);
    if (!p) {
      info.textContent = `${tle.name}\nNo position (decayed or invalid TLE)`;
      setViewerStatus('no-position', tle.name);
      return;
    }
    setViewerStatus('showing', tle.name);
    let text = `${tle.name}\nLat ${p.lat.toFixed(2)}  Lng ${p.lng.toFixed(2)}  Alt ${p.alt.toFixed(0)} km`;
    if (groundStation) {
      const look = lookAngles(tle, now, { ...groundStation, altKm: 0 });
      if (look) {
        text += `\nStation: el ${look.elevationDeg.toFixed(1)} deg, az ${look.azimuthDeg.toFixed(1)} deg, range ${look.rangeKm.toFixed(0)} km`;
      }
    }
    info.textContent = text;
  };
  update();
  setInterval(update, UPDATE_MS);
}

main().catch((err: unknown) => {
  console.error(err);
  info.textContent = 'Could not load the orbit data';
  setViewerStatus('error');
});
