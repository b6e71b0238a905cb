import { lookAngles, subSatellitePoint } from '@tinygs/orbit';
import { parseViewerParams } from './params';
import { createGlobeScene } from './scene';
import { findTle } from './tles';

const UPDATE_MS = 1000;
const info = document.getElementById('info') as HTMLDivElement;
const container = document.getElementById('globe') as HTMLDivElement;

async function main(): Promise<void> {
  const { satellite, groundStation } = parseViewerParams(window.location.search);
  const scene = createGlobeScene(container, groundStation);
  if (!satellite) {
    info.textContent = 'No satellite selected';
    return;
  }
  const res = await fetch('/v1/tles.txt');
  if (!res.ok) throw new Error(`tles.txt: HTTP ${res.status}`);
  const tle = findTle(await res.text(), satellite);
  if (!tle) {
    info.textContent = `${satellite}\nTLE missing`;
    return;
  }
  const update = () => {
    const now = Date.now();
    scene.updateSatellite(tle, now);
    const p = subSatellitePoint(tle, now);
    if (!p) {
      info.textContent = `${tle.name}\nNo position (decayed or invalid TLE)`;
      return;
    }
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
});
