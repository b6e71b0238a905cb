export { StationCard } from './StationCard';
export type { StationCardProps } from './StationCard';
export { useOwnStationIps } from './useOwnStationIps';
