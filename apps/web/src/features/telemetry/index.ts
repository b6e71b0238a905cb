export { TelemetryView, UNRECOGNIZED_PACKET, UNVERIFIED_PACKET } from './components/TelemetryView';
export { renderTemplate } from './lib/renderTemplate';
