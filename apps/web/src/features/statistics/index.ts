export { StatisticsCards, STATISTICS_ERROR } from './components/StatisticsCards';
export { useNetworkStatistics } from './api/useNetworkStatistics';
