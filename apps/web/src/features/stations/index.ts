export { StationCard } from './components/StationCard';
export type { StationCardProps } from './components/StationCard';
export { useOwnStationIps } from './api/useOwnStationIps';
export {
  readStationList,
  stationListQuery,
  useStations,
  useUserStations,
  userStationsQueryKey,
} from './api/stationList';
