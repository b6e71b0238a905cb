// Public surface of the station feature for other features (the page itself is a lazy route).
export { useStationStatistics } from './api/stationReads';
export { stationQuery } from './api/stationLoader';
