// The instance's side of an external Mosquitto: one ingest connection with a persistent session
// (a stable client id, clean:false) holding a shared subscription to every station's `tele`
// topics, so the instances of one share group split the frames between them and the broker keeps
// QoS 1 messages for an instance while it restarts; and a plain subscription to `stat` (answers to
// commands), which every instance gets so the one waiting for an answer sees it. Commands to
// stations are published on the same connection by whichever instance handles the request.
// A message is acknowledged to the broker when its handler is done (with REDIS_URL: journaled).
import { MQTT_TOPIC_ROOT } from '@tinygs/contracts';
import mqtt, { type MqttClient } from 'mqtt';
import type { Logger } from 'pino';
import type { ExternalBrokerConfig } from '../config';
import { SERVER_USERNAME } from './broker-accounts';

export interface ExternalBrokerOptions {
  broker: ExternalBrokerConfig;
  password: string;
  log: Logger;
  /**
   * every message a station published on a `tele` or `stat` topic; a QoS 1 message is
   * acknowledged to the broker when the promise returned (if any) settles
   */
  onMessage(topic: string, payload: Buffer): void | Promise<void>;
}

export interface ExternalBroker {
  publish(topic: string, payload: Buffer): Promise<void>;
  close(): Promise<void>;
}

export function ingestSubscriptions(shareGroup: string): Record<string, { qos: 1 }> {
  return {
    [`$share/${shareGroup}/${MQTT_TOPIC_ROOT}/+/+/tele/#`]: { qos: 1 },
    [`${MQTT_TOPIC_ROOT}/+/+/stat/#`]: { qos: 1 },
  };
}

export async function connectExternalBroker(
  options: ExternalBrokerOptions,
): Promise<ExternalBroker> {
  const { broker, log } = options;
  const failed = (err: unknown, topic: string) =>
    log.error({ err, topic: topic.slice(0, 200) }, 'station message handler failed');
  const handle = (topic: string, payload: Buffer): void | Promise<void> => {
    try {
      return options.onMessage(topic, payload)?.catch((err: unknown) => failed(err, topic));
    } catch (err) {
      failed(err, topic);
    }
  };
  const client: MqttClient = mqtt.connect(broker.url, {
    username: SERVER_USERNAME,
    password: options.password,
    clientId: broker.clientId,
    protocolVersion: 4,
    clean: false,
    connectTimeout: 10_000,
    reconnectPeriod: 1_000,
    // The session is the broker's: a reconnect resumes it and its subscriptions.
    resubscribe: true,
  });
  // Every message passes here before it is acknowledged (QoS 1: the PUBACK goes when `done` is
  // called), and the client hands over the next one after that. Set before the session's queued
  // messages can arrive (right after CONNACK).
  client.handleMessage = (packet, done) => {
    const payload =
      typeof packet.payload === 'string' ? Buffer.from(packet.payload) : packet.payload;
    const handled = handle(packet.topic, payload);
    if (handled) void handled.then(() => done());
    else done();
  };
  await new Promise<void>((resolve, reject) => {
    const connected = () => {
      client.off('error', refused);
      resolve();
    };
    const refused = (err: Error) => {
      client.off('connect', connected);
      client.end(true);
      reject(err);
    };
    client.once('connect', connected);
    client.once('error', refused);
  });
  client.on('error', (err) => log.warn({ err: err.message }, 'external broker connection error'));
  client.on('offline', () => log.warn('external broker unreachable; reconnecting'));
  client.on('reconnect', () => log.debug('reconnecting to the external broker'));
  try {
    await client.subscribeAsync(ingestSubscriptions(broker.shareGroup));
  } catch (err) {
    // mqtt.js rejects a SUBACK refusal (0x80): the server's role is missing on the broker.
    await client.endAsync(true);
    throw new Error(
      `the external broker refused the ingest subscriptions: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  log.info(
    { broker: broker.url, clientId: broker.clientId, shareGroup: broker.shareGroup },
    'ingesting from the external MQTT broker',
  );
  return {
    async publish(topic, payload) {
      await client.publishAsync(topic, payload, { qos: 1, retain: false });
    },
    async close() {
      // A planned stop leaves the share group: the other instances take every frame from now
      // on. The session stays, so what the broker had already queued for this instance waits for
      // its return. (Killed instead, it stays in the group and its share queues until it is back.)
      await client
        .unsubscribeAsync(Object.keys(ingestSubscriptions(broker.shareGroup)))
        .catch((err: unknown) => log.warn({ err }, 'leaving the share group failed'));
      await client.endAsync();
    },
  };
}
