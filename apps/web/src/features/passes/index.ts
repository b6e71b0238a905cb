export { PassTable } from './PassTable';
export { StationPasses, STATION_PASSES_TEXTS } from './StationPasses';
export { SatellitePasses, SATELLITE_PASSES_TEXTS } from './SatellitePasses';
