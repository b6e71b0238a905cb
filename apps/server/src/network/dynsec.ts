// A connection to Mosquitto's dynamic-security plugin: JSON commands published to
// `$CONTROL/dynamic-security/v1`, answers read from `.../v1/response` and matched to their command
// by correlation data. Every instance holds one while it uses an external broker.
import { randomBytes } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import type { Logger } from 'pino';

const CONTROL_TOPIC = '$CONTROL/dynamic-security/v1';
const RESPONSE_TOPIC = `${CONTROL_TOPIC}/response`;
const ANSWER_TIMEOUT_MS = 15_000;
// Commands go in messages of at most this many bytes: the broker refuses bigger packets from any
// client, the admin included (max_packet_size; see mosquitto-config.ts).
const MESSAGE_BYTES = 900;

export type AclType =
  | 'publishClientSend'
  | 'publishClientReceive'
  | 'subscribePattern'
  | 'subscribeLiteral'
  | 'unsubscribePattern'
  | 'unsubscribeLiteral';

export interface Acl {
  acltype: AclType;
  topic: string;
  allow: boolean;
  priority?: number;
}

export interface RoleRef {
  rolename: string;
  priority?: number;
}

export type DynsecCommand = { command: string } & Record<string, unknown>;

export interface DynsecAnswer {
  command: string;
  error?: string;
  data?: Record<string, unknown>;
}

export class DynsecError extends Error {
  override readonly name = 'DynsecError';
  constructor(
    readonly command: string,
    readonly reason: string,
  ) {
    super(`dynamic-security ${command} failed: ${reason}`);
  }
}

export interface DynsecClientSummary {
  username: string;
  textdescription?: string;
  disabled?: boolean;
  roles?: RoleRef[];
}

export interface DynsecRoleSummary {
  rolename: string;
  acls?: Acl[];
}

export interface BrokerAdmin {
  url: string;
  username: string;
  password: string;
}

export class DynamicSecurity {
  private readonly waiting = new Map<
    string,
    { resolve: (a: DynsecAnswer) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }
  >();

  private constructor(
    private readonly client: MqttClient,
    private readonly log: Logger,
  ) {
    client.on('message', (topic, payload) => {
      if (topic === RESPONSE_TOPIC) this.answer(payload);
    });
  }

  static async connect(
    admin: BrokerAdmin,
    log: Logger,
    clientId?: string,
  ): Promise<DynamicSecurity> {
    const client = await mqtt.connectAsync(admin.url, {
      username: admin.username,
      password: admin.password,
      protocolVersion: 4,
      clean: true,
      clientId: clientId ?? `tinygs-admin-${randomBytes(6).toString('hex')}`,
      connectTimeout: 10_000,
      reconnectPeriod: 2_000,
    });
    client.on('error', (err) =>
      log.warn({ err: err.message }, 'dynamic-security connection error'),
    );
    const dynsec = new DynamicSecurity(client, log);
    await client.subscribeAsync(RESPONSE_TOPIC, { qos: 1 });
    return dynsec;
  }

  private answer(payload: Buffer): void {
    let body: { responses?: (DynsecAnswer & { correlationData?: string })[] };
    try {
      body = JSON.parse(payload.toString('utf8')) as typeof body;
    } catch {
      this.log.warn('dynamic-security answer is not JSON');
      return;
    }
    for (const r of body.responses ?? []) {
      const key = r.correlationData;
      const w = key === undefined ? undefined : this.waiting.get(key);
      if (!w || key === undefined) continue;
      this.waiting.delete(key);
      clearTimeout(w.timer);
      w.resolve(r);
    }
  }

  /** Sends the commands; one answer per command, in order (errors are in the answers). */
  async sendAll(commands: readonly DynsecCommand[]): Promise<DynsecAnswer[]> {
    const answers: DynsecAnswer[] = [];
    let chunk: (DynsecCommand & { correlationData: string })[] = [];
    let bytes = 0;
    const flush = async () => {
      if (chunk.length === 0) return;
      const sent = chunk;
      chunk = [];
      bytes = 0;
      answers.push(...(await this.exchange(sent)));
    };
    for (const c of commands) {
      const tagged = { ...c, correlationData: randomBytes(9).toString('hex') };
      const size = Buffer.byteLength(JSON.stringify(tagged)) + 1;
      if (bytes + size > MESSAGE_BYTES) await flush();
      chunk.push(tagged);
      bytes += size;
    }
    await flush();
    return answers;
  }

  private async exchange(
    tagged: readonly (DynsecCommand & { correlationData: string })[],
  ): Promise<DynsecAnswer[]> {
    const pending = tagged.map(
      (c) =>
        new Promise<DynsecAnswer>((resolve, reject) => {
          const timer = setTimeout(() => {
            this.waiting.delete(c.correlationData);
            reject(new DynsecError(c.command, 'no answer from the broker'));
          }, ANSWER_TIMEOUT_MS);
          this.waiting.set(c.correlationData, { resolve, reject, timer });
        }),
    );
    await this.client.publishAsync(CONTROL_TOPIC, JSON.stringify({ commands: tagged }), {
      qos: 1,
    });
    return Promise.all(pending);
  }

  /** Sends one command and throws on its error, except the ones listed as harmless. */
  async run(command: DynsecCommand, harmless: RegExp | null = null): Promise<DynsecAnswer> {
    const [a] = await this.sendAll([command]);
    if (!a) throw new DynsecError(command.command, 'no answer');
    if (a.error && !(harmless && harmless.test(a.error)))
      throw new DynsecError(command.command, a.error);
    return a;
  }

  /** Runs the commands; the first error that is not harmless is thrown. */
  async runAll(commands: readonly DynsecCommand[], harmless: RegExp | null = null): Promise<void> {
    const answers = await this.sendAll(commands);
    answers.forEach((a, i) => {
      if (a.error && !(harmless && harmless.test(a.error)))
        throw new DynsecError(commands[i]?.command ?? a.command, a.error);
    });
  }

  async listClients(): Promise<DynsecClientSummary[]> {
    const a = await this.run({ command: 'listClients', verbose: true, count: -1, offset: 0 });
    return (a.data?.clients as DynsecClientSummary[] | undefined) ?? [];
  }

  async listRoles(): Promise<DynsecRoleSummary[]> {
    const a = await this.run({ command: 'listRoles', verbose: true, count: -1, offset: 0 });
    return (a.data?.roles as DynsecRoleSummary[] | undefined) ?? [];
  }

  async close(): Promise<void> {
    for (const [key, w] of this.waiting) {
      clearTimeout(w.timer);
      w.reject(new Error('dynamic-security connection closed'));
      this.waiting.delete(key);
    }
    await this.client.endAsync();
  }
}
