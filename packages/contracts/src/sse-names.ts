// Names of the /sse/events events, without a schema library (the web app's live map takes them
// without zod; events.ts has the schemas and re-exports these).
export const SSE_EVENTS = {
  newPacket: 'new-packet',
  stations: 'stations',
  /** only on streams opened with `?stations=delta` (instead of `stations`) */
  stationsDelta: 'stations-delta',
} as const;
export type SseEventName = (typeof SSE_EVENTS)[keyof typeof SSE_EVENTS];
