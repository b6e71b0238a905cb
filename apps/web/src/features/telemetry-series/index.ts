export { TelemetrySeries, TELEMETRY_SERIES_TEXTS } from './components/TelemetrySeries';
