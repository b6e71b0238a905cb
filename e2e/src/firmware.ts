// Plays the station firmware's part of PROTOCOL.md: polls GET /credentials?otp= until the owner has
// submitted the code, then connects to the broker with those credentials (last will, subscriptions,
// tele/welcome) and records every command the server sends it.
import {
  FirmwareCredentialsResponseSchema,
  LAST_WILL_PAYLOAD,
  lastWillTopic,
  stationSubscriptions,
  stationTopic,
  type FirmwareCredentialsResponse,
} from '@tinygs/contracts';
import mqtt, { type MqttClient } from 'mqtt';

export interface ReceivedCommand {
  name: string;
  payload: Buffer;
}

export interface FirmwareStation {
  userId: string;
  name: string;
  client: MqttClient;
  commands: ReceivedCommand[];
  /** The first command named `name` received after `since` commands (index into `commands`). */
  waitForCommand(name: string, since?: number, timeoutMs?: number): Promise<ReceivedCommand>;
  /** Leaves like a station that loses power: the broker publishes the last will. */
  powerOff(): Promise<void>;
}

/** Polls like the firmware (every 15 s there; faster here) until the code is accepted. */
export async function collectCredentials(
  baseUrl: string,
  otp: string,
  timeoutMs = 120_000,
): Promise<FirmwareCredentialsResponse> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${baseUrl}/credentials?otp=${otp}`);
    if (res.status === 200) return FirmwareCredentialsResponseSchema.parse(await res.json());
    if (res.status !== 404) throw new Error(`/credentials answered ${res.status}`);
    if (Date.now() > deadline) throw new Error(`code ${otp} was never submitted`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

export function welcome(location: [number, number], extra: Record<string, unknown> = {}) {
  return {
    station_location: location,
    tx: true,
    time: Math.floor(Date.now() / 1000),
    version: 2603242,
    git_version: 'v2603242',
    sat: 'Norbi',
    ip: '192.168.1.50',
    modem_conf:
      '{"mode":"LoRa","freq":436.703,"bw":250,"sf":10,"cr":5,"sw":18,"pwr":5,"cl":120,"pl":8,"gain":0,"crc":true,"fldro":1,"sat":"Norbi","NORAD":46494}',
    board: 1,
    mac: 'E2E0A1B2C3D4',
    seconds: 5,
    Vbat: 4.1,
    Mem: 120000,
    chip: 'ESP32',
    radioChip: 'SX1278',
    ...extra,
  };
}

/** Connects with the credentials the server handed out, the way the firmware does after reboot. */
export async function connectFirmware(
  mqttPort: number,
  creds: FirmwareCredentialsResponse,
): Promise<FirmwareStation> {
  const userId = creds.mqtt.user;
  const name = creds.config.stationName;
  const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, {
    username: userId,
    password: creds.mqtt.pass,
    protocolVersion: 4,
    reconnectPeriod: 0,
    connectTimeout: 5_000,
    clientId: `e2e${Math.random().toString(16).slice(2, 14)}`,
    will: {
      topic: lastWillTopic(userId, name),
      payload: Buffer.from(LAST_WILL_PAYLOAD),
      qos: 2,
      retain: false,
    },
  });
  const commands: ReceivedCommand[] = [];
  const prefix = `${stationTopic(userId, name, 'cmnd', '')}`;
  client.on('message', (topic, payload) => {
    if (topic.startsWith(prefix)) commands.push({ name: topic.slice(prefix.length), payload });
  });
  await client.subscribeAsync(stationSubscriptions(userId, name), { qos: 1 });
  const location: [number, number] = [
    Number(creds.config.latitude),
    Number(creds.config.longitude),
  ];
  await client.publishAsync(
    stationTopic(userId, name, 'tele', 'welcome'),
    JSON.stringify(welcome(location)),
    { qos: 1 },
  );
  return {
    userId,
    name,
    client,
    commands,
    async waitForCommand(command, since = 0, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = commands.slice(since).find((c) => c.name === command);
        if (found) return found;
        if (Date.now() > deadline) {
          const seen = commands.map((c) => c.name).join(', ') || 'nothing';
          throw new Error(`station never received cmnd/${command} (received: ${seen})`);
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async powerOff() {
      // A socket that just drops (no DISCONNECT) makes the broker send the last will.
      client.stream.destroy();
      client.end(true);
    },
  };
}
