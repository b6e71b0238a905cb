// The embedded MQTT 3.1.1 broker (aedes) the station firmware connects to: plain TCP on MQTT_PORT
// and, when a certificate is configured, TLS. Authentication is the user id and MQTT password;
// authorisation follows broker-acl.ts. The server publishes commands in-process (no user identity).
import { readFileSync } from 'node:fs';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { Aedes, type AuthErrorCode, type AuthenticateError, type Client } from 'aedes';
import type { Logger } from 'pino';
import { mayPublish, maySubscribe } from './broker-acl';
import { guardPacketSize } from './packet-size-guard';

export interface BrokerOptions {
  /** null: 1883, or a free port when 1883 is taken; 0: any free port */
  port: number | null;
  host: string;
  tls: { port: number; cert: string; key: string } | null;
  maxPacketBytes: number;
  log: Logger;
  /** the user id whose MQTT password this is, or null */
  authenticate(username: string, password: string): Promise<boolean>;
  /** every authorised publish of a connected client (including its last will) */
  onMessage(topic: string, payload: Buffer, client: Client): void;
  onClientGone(client: Client): void;
  onOversize(client: Client | null, announcedBytes: number): void;
}

export interface RunningBroker {
  aedes: Aedes;
  port: number;
  tlsPort: number | null;
  /** publishes as the server */
  publish(topic: string, payload: Buffer): Promise<void>;
  disconnect(client: Client): void;
  close(): Promise<void>;
}

export const DEFAULT_MQTT_PORT = 1883;

/**
 * Broker tuning shared with the benchmark's raw broker. No delivery concurrency cap: with a cap,
 * aedes' emitter queues messages and drains the queue recursively, and a deep queue of messages
 * nobody subscribes to (every `tele/*`) overflows the stack. Each connection is still read only
 * as fast as its messages are handled.
 */
export const BROKER_TUNING = { concurrency: 0 } as const;

function authError(message: string, code: number): AuthenticateError {
  return Object.assign(new Error(message), { returnCode: code as AuthErrorCode });
}
const BAD_USERNAME_OR_PASSWORD = 4;

function listen(server: NetServer, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      const addr = server.address();
      resolve(typeof addr === 'object' && addr ? addr.port : port);
    });
  });
}

function isAddressInUse(err: unknown): boolean {
  return (err as { code?: string } | null)?.code === 'EADDRINUSE';
}

function pem(value: string): string | Buffer {
  return value.includes('-----BEGIN') ? value : readFileSync(value);
}

export async function startBroker(options: BrokerOptions): Promise<RunningBroker> {
  const { log } = options;
  const userOf = new WeakMap<Client, string>();
  const aedes = await Aedes.createBroker({
    ...BROKER_TUNING,
    // Station firmware identifies with its MAC (12 hex digits); allow some room, not kilobytes.
    maxClientsIdLength: 64,
    authenticate(client, username, password, done) {
      if (!username || !/^\d{1,20}$/.test(username) || !password) {
        done(authError('Bad user name or password', BAD_USERNAME_OR_PASSWORD), false);
        return;
      }
      options.authenticate(username, password.toString('utf8')).then(
        (ok) => {
          if (ok) userOf.set(client, username);
          done(ok ? null : authError('Bad user name or password', BAD_USERNAME_OR_PASSWORD), ok);
        },
        (err: unknown) => {
          log.error({ err }, 'MQTT authentication failed on storage');
          done(authError('Server unavailable', 3), false);
        },
      );
    },
    authorizePublish(client, packet, done) {
      const userId = client ? userOf.get(client) : undefined;
      if (!client || userId === undefined || !mayPublish(userId, packet.topic)) {
        done(new Error(`publish to ${packet.topic} not allowed`));
        return;
      }
      const size =
        Buffer.byteLength(packet.topic) +
        (typeof packet.payload === 'string'
          ? Buffer.byteLength(packet.payload)
          : packet.payload.length);
      if (size > options.maxPacketBytes) {
        // Usually the connection guard saw the header first and has closed the connection already.
        if (!client.conn.destroyed) options.onOversize(client, size);
        done(new Error('packet too large'));
        return;
      }
      done(null);
    },
    authorizeSubscribe(client, sub, done) {
      const userId = userOf.get(client);
      if (userId === undefined || !maySubscribe(userId, sub.topic)) {
        // A null subscription is refused in the SUBACK (0x80); the connection stays up.
        done(null, null);
        return;
      }
      done(null, sub);
    },
  });

  aedes.on('publish', (packet, client) => {
    if (!client || !userOf.has(client)) return;
    try {
      options.onMessage(
        packet.topic,
        Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload),
        client,
      );
    } catch (err) {
      // Nothing a station sends may take the broker down.
      log.error({ err, topic: packet.topic }, 'station message handler failed');
    }
  });
  aedes.on('clientDisconnect', (client) => options.onClientGone(client));
  aedes.on('clientError', (client, err) =>
    log.debug({ err: err.message, clientId: client.id }, 'MQTT client error'),
  );
  aedes.on('connectionError', (_client, err) =>
    log.debug({ err: err.message }, 'MQTT connection error'),
  );

  const sockets = new Set<Socket>();
  const handle = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    const client = aedes.handle(socket);
    guardPacketSize(socket, options.maxPacketBytes, (announced) => {
      options.onOversize(client, announced);
      socket.destroy();
    });
  };

  const tcp = createNetServer(handle);
  let port: number;
  if (options.port === null) {
    try {
      port = await listen(tcp, DEFAULT_MQTT_PORT, options.host);
    } catch (err) {
      if (!isAddressInUse(err)) throw err;
      port = await listen(tcp, 0, options.host);
      log.warn(
        `MQTT port ${DEFAULT_MQTT_PORT} is in use; the broker listens on ${port} instead (set MQTT_PORT to choose)`,
      );
    }
  } else {
    try {
      port = await listen(tcp, options.port, options.host);
    } catch (err) {
      aedes.close();
      if (isAddressInUse(err))
        throw new Error(
          `MQTT_PORT ${options.port} is already in use: stop the other broker or choose another port`,
        );
      throw err;
    }
  }

  let tlsServer: NetServer | null = null;
  let tlsPort: number | null = null;
  if (options.tls) {
    tlsServer = createTlsServer(
      { cert: pem(options.tls.cert), key: pem(options.tls.key) },
      handle as (s: Socket) => void,
    );
    try {
      tlsPort = await listen(tlsServer, options.tls.port, options.host);
    } catch (err) {
      tcp.close();
      aedes.close();
      if (isAddressInUse(err))
        throw new Error(`MQTT_TLS_PORT ${options.tls.port} is already in use`);
      throw err;
    }
  }
  log.info(
    { port, tlsPort },
    `MQTT broker listening on ${options.host}:${port}${tlsPort ? ` (TLS ${tlsPort})` : ''}`,
  );

  return {
    aedes,
    port,
    tlsPort,
    publish(topic, payload) {
      return new Promise((resolve, reject) => {
        aedes.publish(
          { cmd: 'publish', topic, payload, qos: 1, retain: false, dup: false },
          (err) => (err ? reject(err) : resolve()),
        );
      });
    },
    disconnect(client) {
      client.close();
    },
    async close() {
      const closed = (server: NetServer) =>
        new Promise<void>((resolve) => server.close(() => resolve()));
      const waits = [closed(tcp), ...(tlsServer ? [closed(tlsServer)] : [])];
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await Promise.all(waits);
    },
  };
}
