// Where a new station should dial the broker: the public host name from configuration and the port
// the broker actually bound (the network part picks a free one when 1883 is taken).
import type { AppContext } from '../context';

const DEFAULT_MQTT_PORT = 1883;

export function brokerAddress(ctx: AppContext): { server: string; port: number } {
  const { mqtt } = ctx.config;
  const bound = ctx.services.network?.mqtt;
  // An external broker: stations dial it (its TLS, if any, is the broker's own configuration).
  if (mqtt.external) return { server: mqtt.publicHost, port: mqtt.external.port };
  // With a TLS listener configured, stations in the field use it (PROTOCOL.md: 8883).
  if (mqtt.tls) return { server: mqtt.publicHost, port: bound?.tlsPort ?? mqtt.tls.port };
  const configured = mqtt.port !== null && mqtt.port > 0 ? mqtt.port : DEFAULT_MQTT_PORT;
  return { server: mqtt.publicHost, port: bound?.port ?? configured };
}
