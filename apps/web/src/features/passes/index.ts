export { PassTable } from './components/PassTable';
export { StationPasses, STATION_PASSES_TEXTS } from './components/StationPasses';
export { SatellitePasses, SATELLITE_PASSES_TEXTS } from './components/SatellitePasses';
