export { StatisticsCards, STATISTICS_ERROR } from './components/StatisticsCards';
