// Where a new station should dial the broker: the public host name from configuration and the port
// the broker actually bound (the network part may pick a free one when MQTT_PORT is unset).
import type { AppContext } from '../context';

const DEFAULT_MQTT_PORT = 1883;

function portOf(service: unknown): number | null {
  if (typeof service !== 'object' || service === null) return null;
  const record = service as Record<string, unknown>;
  for (const key of ['port', 'boundPort', 'mqttPort']) {
    const value = record[key];
    if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
    if (typeof value === 'function') {
      const result: unknown = (value as () => unknown).call(service);
      if (typeof result === 'number' && Number.isInteger(result) && result > 0) return result;
    }
  }
  return null;
}

export function brokerAddress(ctx: AppContext): { server: string; port: number } {
  const { mqtt } = ctx.config;
  // A TLS listener is what stations in the field use (PROTOCOL.md: 8883).
  if (mqtt.tls) return { server: mqtt.publicHost, port: mqtt.tls.port };
  const bound = portOf(ctx.services.broker) ?? portOf(ctx.services.mqtt);
  return { server: mqtt.publicHost, port: bound ?? (mqtt.port && mqtt.port > 0 ? mqtt.port : DEFAULT_MQTT_PORT) };
}
