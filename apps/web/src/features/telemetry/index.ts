export { TelemetryView, UNRECOGNIZED_PACKET } from './components/TelemetryView';
export { renderTemplate } from './lib/renderTemplate';
