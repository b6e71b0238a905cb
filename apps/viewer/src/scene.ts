import type { Tle } from '@tinygs/orbit';
import {
  BufferGeometry,
  CanvasTexture,
  Color,
  Line,
  LineBasicMaterial,
  Mesh,
  MeshBasicMaterial,
  PerspectiveCamera,
  Scene,
  SphereGeometry,
  SRGBColorSpace,
  Vector3,
  WebGLRenderer,
} from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { geodeticToScene, orbitSnapshot, sceneToGeodetic } from './geometry';
import { drawGlobeTexture } from './globeTexture';
import { recordFrame, type DrawnSatellite } from './viewerState';

export interface GlobeScene {
  updateSatellite(tle: Tle, nowMs: number): void;
}

export function createGlobeScene(
  container: HTMLElement,
  groundStation: { latDeg: number; lngDeg: number } | null,
): GlobeScene {
  const renderer = new WebGLRenderer({ antialias: true });
  renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
  container.appendChild(renderer.domElement);

  const scene = new Scene();
  scene.background = new Color('#02060d');
  const camera = new PerspectiveCamera(45, 1, 0.01, 100);
  camera.position.set(0, 1.5, 3.5);

  const texture = new CanvasTexture(drawGlobeTexture());
  texture.colorSpace = SRGBColorSpace;
  scene.add(new Mesh(new SphereGeometry(1, 96, 64), new MeshBasicMaterial({ map: texture })));

  const satMesh = new Mesh(
    new SphereGeometry(0.025, 16, 12),
    new MeshBasicMaterial({ color: '#ffd54f' }),
  );
  satMesh.visible = false;
  scene.add(satMesh);

  const orbitLine = new Line(new BufferGeometry(), new LineBasicMaterial({ color: '#4fc3f7' }));
  scene.add(orbitLine);

  let gsPosition: Vector3 | null = null;
  let linkLine: Line | null = null;
  if (groundStation) {
    gsPosition = geodeticToScene(groundStation.latDeg, groundStation.lngDeg, 0);
    const gsMesh = new Mesh(
      new SphereGeometry(0.015, 12, 8),
      new MeshBasicMaterial({ color: '#ef5350' }),
    );
    gsMesh.position.copy(gsPosition);
    scene.add(gsMesh);
    linkLine = new Line(new BufferGeometry(), new LineBasicMaterial({ color: '#ef5350' }));
    scene.add(linkLine);
    camera.position.copy(gsPosition.clone().multiplyScalar(3.5));
  }

  const controls = new OrbitControls(camera, renderer.domElement);
  controls.enableDamping = true;
  controls.enablePan = false;
  controls.minDistance = 1.2;
  controls.maxDistance = 12;

  const resize = () => {
    const w = container.clientWidth || window.innerWidth;
    const h = container.clientHeight || window.innerHeight;
    renderer.setSize(w, h, false);
    renderer.domElement.style.width = '100%';
    renderer.domElement.style.height = '100%';
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
  };
  window.addEventListener('resize', resize);
  resize();

  let cameraAimed = groundStation !== null;
  /** The instant the satellite mesh's current position was computed for. */
  let satTimeMs: number | null = null;
  const drawnAt = new Vector3();
  const drawnSatellite = (): DrawnSatellite | null => {
    if (!satMesh.visible || satTimeMs === null) return null;
    satMesh.getWorldPosition(drawnAt);
    const { lat, lng, altKm } = sceneToGeodetic(drawnAt);
    const ndc = drawnAt.project(camera);
    const canvas = renderer.domElement;
    return {
      timeMs: satTimeMs,
      lat,
      lng,
      altKm,
      screenX: ((ndc.x + 1) / 2) * canvas.clientWidth,
      screenY: ((1 - ndc.y) / 2) * canvas.clientHeight,
    };
  };
  renderer.setAnimationLoop(() => {
    controls.update();
    renderer.render(scene, camera);
    recordFrame(drawnSatellite());
  });

  return {
    updateSatellite(tle, nowMs) {
      const snap = orbitSnapshot(tle, nowMs);
      satMesh.visible = snap !== null;
      if (!snap) return;
      satMesh.position.copy(snap.satellite);
      satTimeMs = nowMs;
      orbitLine.geometry.dispose();
      orbitLine.geometry = new BufferGeometry().setFromPoints(snap.ring);
      if (linkLine && gsPosition) {
        linkLine.geometry.dispose();
        linkLine.geometry = new BufferGeometry().setFromPoints([gsPosition, snap.satellite]);
      }
      if (!cameraAimed) {
        camera.position.copy(snap.satellite.clone().normalize().multiplyScalar(3.5));
        cameraAimed = true;
      }
    },
  };
}
