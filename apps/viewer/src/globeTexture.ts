// Equirectangular Earth texture drawn at runtime from Natural Earth land outlines, so the viewer
// needs no image files and works offline.
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import land110m from 'world-atlas/land-110m.json';
import { planarPolygons } from '@tinygs/orbit';

const OCEAN = '#0d2a4a';
const LAND = '#3c6e47';
const COAST = '#9cc5a1';
const GRID = 'rgba(255,255,255,0.12)';

export function drawGlobeTexture(width = 2048): HTMLCanvasElement {
  const height = width / 2;
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx) return canvas;
  const x = (lng: number) => ((lng + 180) / 360) * width;
  const y = (lat: number) => ((90 - lat) / 180) * height;

  ctx.fillStyle = OCEAN;
  ctx.fillRect(0, 0, width, height);

  ctx.strokeStyle = GRID;
  ctx.lineWidth = 1;
  for (let lng = -180; lng <= 180; lng += 30) {
    ctx.beginPath();
    ctx.moveTo(x(lng), 0);
    ctx.lineTo(x(lng), height);
    ctx.stroke();
  }
  for (let lat = -60; lat <= 60; lat += 30) {
    ctx.beginPath();
    ctx.moveTo(0, y(lat));
    ctx.lineTo(width, y(lat));
    ctx.stroke();
  }

  const topology = land110m as unknown as Topology<{ land: GeometryCollection }>;
  const land = feature(topology, topology.objects.land);
  ctx.beginPath();
  for (const f of land.features) {
    for (const ring of planarPolygons(f.geometry)) {
      ring.forEach(([lng, lat], i) =>
        i === 0 ? ctx.moveTo(x(lng), y(lat)) : ctx.lineTo(x(lng), y(lat)),
      );
      ctx.closePath();
    }
  }
  ctx.fillStyle = LAND;
  ctx.fill();
  ctx.strokeStyle = COAST;
  ctx.lineWidth = 1;
  ctx.stroke();
  return canvas;
}
