// Package root: every schema, type, rule and constant shared by the server and the web app.
export * from './binary';
export * from './constants';
export * from './ids';
export * from './rules';
export * from './entities';
export * from './operate';
export * from './api';
export * from './events';
export * from './station-digest';
export * from './mqtt';
export * from './rx-check';
export * from './tokens';
export * from './health';
export * from './passes';
export * from './offline-alerts';
export * from './telemetry';
export * from './leaderboards';
