export { useSatellite } from './api/useSatellite';
export { SatelliteOverview } from './components/SatelliteOverview';
export { TleBlock } from './components/TleBlock';
export { ElementSetFacts } from './components/ElementSetFacts';
export { OrbitViewer } from './components/OrbitViewer';
export { SatelliteImages } from './components/SatelliteImages';
