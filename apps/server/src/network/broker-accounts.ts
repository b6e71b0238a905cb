// Station credentials on an external Mosquitto: one dynamic-security client per account (username =
// the numeric user id, as the firmware logs in and names its topics) with a role of its own that
// allows exactly what broker-acl.ts allows on the embedded broker. Dynamic security substitutes no
// %u in ACL topics, so each role names its user literally. Usernames are unique in the plugin,
// so an account has one password for all its stations (docs/SECURITY.md). The server's own ingest
// client gets a role for the shared subscriptions and for publishing commands.
import { createHmac } from 'node:crypto';
import { MQTT_TOPIC_ROOT } from '@tinygs/contracts';
import type { Logger } from 'pino';
import type { Acl, DynamicSecurity, DynsecClientSummary, DynsecCommand, RoleRef } from './dynsec';

export const SERVER_USERNAME = 'tinygs-server';
export const SERVER_ROLE = 'tinygs-server';
const USER_ROLE_PREFIX = 'tinygs-user-';
const TAG_PREFIX = 'tinygs:';
const USER_ID = /^\d{1,20}$/;
const EXISTS = /already exists/i;
const R = MQTT_TOPIC_ROOT;

export function userRoleName(userId: string): string {
  return `${USER_ROLE_PREFIX}${userId}`;
}

/** broker-acl.ts as dynamic-security ACLs (everything not allowed is denied by default). */
export function userAcls(userId: string): Acl[] {
  return [
    { acltype: 'publishClientSend', topic: `${R}/${userId}/+/tele/#`, allow: true },
    { acltype: 'publishClientSend', topic: `${R}/${userId}/+/stat/#`, allow: true },
    { acltype: 'subscribePattern', topic: `${R}/global/#`, allow: true },
    { acltype: 'subscribePattern', topic: `${R}/${userId}/+/cmnd/#`, allow: true },
    { acltype: 'publishClientReceive', topic: `${R}/global/#`, allow: true },
    { acltype: 'publishClientReceive', topic: `${R}/${userId}/+/cmnd/#`, allow: true },
  ];
}

/**
 * The instances' ingest: shared subscriptions to every station's `tele`, a plain one to `stat`
 * (answers to commands go to every instance, so the one waiting for it sees it), and commands.
 */
export function serverAcls(): Acl[] {
  return [
    { acltype: 'subscribePattern', topic: `$share/+/${R}/+/+/tele/#`, allow: true },
    { acltype: 'subscribePattern', topic: `${R}/+/+/stat/#`, allow: true },
    { acltype: 'publishClientReceive', topic: `${R}/+/+/tele/#`, allow: true },
    { acltype: 'publishClientReceive', topic: `${R}/+/+/stat/#`, allow: true },
    { acltype: 'publishClientSend', topic: `${R}/+/+/cmnd/#`, allow: true },
    { acltype: 'publishClientSend', topic: `${R}/global/#`, allow: true },
  ];
}

/** The ingest client's password, derived from the server secret (the same on every instance). */
export function serverBrokerPassword(secret: string): string {
  return createHmac('sha256', secret).update('mqtt-server-client').digest('base64url');
}

/**
 * A keyed fingerprint of a password kept in the client's description: the plugin stores only a
 * hash we cannot compare against, and reconciling must not reset every password at each start
 * (which would need each station to log in again).
 */
function passwordTag(secret: string, password: string): string {
  const mac = createHmac('sha256', secret).update(`mqtt-password-tag\0${password}`);
  return `${TAG_PREFIX}${mac.digest('base64url').slice(0, 22)}`;
}

function aclKey(acls: readonly Acl[] | undefined): string {
  return (acls ?? [])
    .map((a) => `${a.acltype} ${a.topic} ${a.allow}`)
    .sort()
    .join('\n');
}

function hasOnlyRole(roles: readonly RoleRef[] | undefined, rolename: string): boolean {
  return roles?.length === 1 && roles[0]?.rolename === rolename;
}

export interface ReconcileOutcome {
  created: number;
  repaired: number;
  removed: number;
}

export class BrokerAccounts {
  constructor(
    private readonly dynsec: DynamicSecurity,
    private readonly secret: string,
    private readonly log: Logger,
  ) {}

  /** Creates the account's client and role, or brings them back to what they must be. */
  async ensureUser(userId: string, password: string): Promise<void> {
    const rolename = userRoleName(userId);
    await this.dynsec.run({ command: 'createRole', rolename, acls: userAcls(userId) }, EXISTS);
    const client = {
      username: userId,
      password,
      textdescription: passwordTag(this.secret, password),
      roles: [{ rolename }],
    };
    const created = await this.dynsec.run({ command: 'createClient', ...client }, EXISTS);
    if (created.error) {
      await this.dynsec.runAll([
        { command: 'modifyRole', rolename, acls: userAcls(userId) },
        { command: 'modifyClient', ...client },
        { command: 'enableClient', username: userId },
      ]);
    }
  }

  /** A new account password: the old one is refused from now on and its connections closed. */
  async changePassword(userId: string, password: string): Promise<void> {
    await this.ensureUser(userId, password);
    await this.kick(userId);
  }

  /** Closes every connection logged in as this user (disabling kicks; enabling lets them back). */
  async kick(userId: string): Promise<void> {
    await this.dynsec.runAll([
      { command: 'disableClient', username: userId },
      { command: 'enableClient', username: userId },
    ]);
  }

  /**
   * Makes the plugin agree with the users table (`passwords`: user id to MQTT password): default
   * deny, the server's client, a client and role per account with the current password, and no
   * client or role left for an account that no longer exists.
   */
  async reconcile(passwords: ReadonlyMap<string, string>): Promise<ReconcileOutcome> {
    const outcome: ReconcileOutcome = { created: 0, repaired: 0, removed: 0 };
    await this.dynsec.run({
      command: 'setDefaultACLAccess',
      acls: [
        { acltype: 'publishClientSend', allow: false },
        { acltype: 'publishClientReceive', allow: false },
        { acltype: 'subscribe', allow: false },
        { acltype: 'unsubscribe', allow: true },
      ],
    });
    const roles = new Map((await this.dynsec.listRoles()).map((r) => [r.rolename, r.acls]));
    const clients = new Map((await this.dynsec.listClients()).map((c) => [c.username, c]));
    const commands: DynsecCommand[] = [];

    const want = (username: string, password: string, rolename: string, acls: Acl[]): void => {
      const roleAcls = roles.get(rolename);
      const client = clients.get(username);
      if (!client) outcome.created += 1;
      else if (
        roleAcls === undefined ||
        aclKey(roleAcls) !== aclKey(acls) ||
        !this.clientMatches(client, password, rolename)
      )
        outcome.repaired += 1;
      if (roleAcls === undefined) commands.push({ command: 'createRole', rolename, acls });
      else if (aclKey(roleAcls) !== aclKey(acls))
        commands.push({ command: 'modifyRole', rolename, acls });
      const fields = {
        username,
        password,
        textdescription: passwordTag(this.secret, password),
        roles: [{ rolename }],
      };
      if (!client) commands.push({ command: 'createClient', ...fields });
      else if (!this.clientMatches(client, password, rolename)) {
        commands.push({ command: 'modifyClient', ...fields });
        if (client.disabled) commands.push({ command: 'enableClient', username });
      }
    };

    want(SERVER_USERNAME, serverBrokerPassword(this.secret), SERVER_ROLE, serverAcls());
    for (const [userId, password] of passwords)
      want(userId, password, userRoleName(userId), userAcls(userId));

    for (const username of clients.keys()) {
      if (!USER_ID.test(username) || passwords.has(username)) continue;
      commands.push({ command: 'deleteClient', username });
      outcome.removed += 1;
    }
    for (const rolename of roles.keys()) {
      if (!rolename.startsWith(USER_ROLE_PREFIX)) continue;
      if (passwords.has(rolename.slice(USER_ROLE_PREFIX.length))) continue;
      commands.push({ command: 'deleteRole', rolename });
    }
    await this.dynsec.runAll(commands, EXISTS);
    this.log.info(outcome, 'broker accounts reconciled with the users table');
    return outcome;
  }

  private clientMatches(client: DynsecClientSummary, password: string, rolename: string): boolean {
    return (
      client.disabled !== true &&
      client.textdescription === passwordTag(this.secret, password) &&
      hasOnlyRole(client.roles, rolename)
    );
  }
}
