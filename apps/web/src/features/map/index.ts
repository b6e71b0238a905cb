// Public surface of the map feature. Every component here is a lazy wrapper: importing this file
// costs no Leaflet, world outline or SGP4 code; those load only when a map is actually rendered.
export {
  WorldMap,
  PacketMap,
  StationPacketsMap,
  LocationPicker,
  StationsMap,
  preloadWorldMap,
} from './components/lazy';
export { prefetchWorldData } from './world/worldRequests';
export type {
  LatLng,
  WorldMapProps,
  PacketMapProps,
  StationPacketsMapProps,
  LocationPickerProps,
  StationsMapProps,
} from './lib/types';
