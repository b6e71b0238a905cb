// The admin CLI as an operator's script runs it: a separate process against the same DATA_DIR and
// database as a running server, printing exactly one JSON object with --json.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CLI_TEST_TIMEOUT_MS, cliEnvironment, runCli, type CliResult } from './cli-process';
import { buildStation } from './factories';
import { DIALECTS, startTestServer, type TestServer } from './harness';

vi.setConfig({ testTimeout: CLI_TEST_TIMEOUT_MS });

describe.each(DIALECTS)('admin CLI on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server?.stop();
  });

  function cli(...args: string[]): Promise<CliResult> {
    return runCli(args, cliEnvironment(server.ctx.config));
  }

  /** Runs with --json and parses the one object printed. */
  async function json(...args: string[]): Promise<{ code: number; body: Record<string, unknown> }> {
    const result = await cli(...args, '--json');
    const lines = result.stdout.trim().split('\n');
    expect(lines, result.stderr).toHaveLength(1);
    return { code: result.code, body: JSON.parse(lines[0] ?? '') };
  }

  it('creates a user, prints a working login link and the broker credentials', async () => {
    const added = await json('user', 'add', '--email', 'Operator@Example.org');
    expect(added).toEqual({
      code: 0,
      body: { userId: expect.stringMatching(/^\d{12}$/), created: true },
    });
    const userId = String(added.body.userId);
    const again = await json('user', 'add', '--email', 'operator@example.org');
    expect(again.body).toEqual({ userId, created: false });

    const link = await json('user', 'login-link', '--email', 'operator@example.org');
    expect(link.code).toBe(0);
    const url = new URL(String(link.body.url));
    expect(url.origin).toBe(server.ctx.config.publicUrl);
    const login = await server.app.inject({
      method: 'POST',
      url: '/v1/login',
      payload: {
        loginToken: url.searchParams.get('loginToken'),
        userId: url.searchParams.get('userId'),
      },
    });
    expect(login.statusCode).toBe(200);
    const headers = { userid: userId, sessiontoken: login.json().sessionToken };

    const creds = await json('user', 'mqtt', '--email', 'operator@example.org');
    const fromApi = await server.app.inject({
      method: 'GET',
      url: `/v1/mqttcred?userId=${userId}`,
      headers,
    });
    expect(creds.body).toEqual(fromApi.json());
    expect(creds.body.user).toBe(userId);
  });

  it('prints plain text without --json', async () => {
    await json('user', 'add', '--email', 'plain@example.org');
    const text = await cli('user', 'login-link', '--email', 'plain@example.org');
    expect(text.code).toBe(0);
    expect(text.stdout.trim()).toMatch(/^http:\/\/\S+\/\?loginToken=[\w-]+&userId=\d+$/);
  });

  it('lists, approves and rejects pending pictures', async () => {
    const db = server.ctx.database.db;
    const owner = await json('user', 'add', '--email', 'gallery@example.org');
    const stationId = await buildStation(db, { userId: String(owner.body.userId), name: 'Cli_1' });
    for (const id of ['00000000000000a1', '00000000000000a2']) {
      await db
        .insertInto('stationPictures')
        .values({
          id,
          stationId,
          status: 0,
          size: 100,
          origName: `${id}.jpg`,
          type: 'image/jpeg',
          createdAt: Date.now(),
        })
        .execute();
    }
    const dir = join(server.ctx.config.dataDir, 'pictures');
    const files = (id: string) => [join(dir, `${id}.jpg`), join(dir, `${id}_thumb.jpg`)];
    for (const file of [...files('00000000000000a1'), ...files('00000000000000a2')])
      writeFileSync(file, 'jpeg');
    const pending = await json('pictures', 'list-pending');
    const listed = pending.body.pictures as { shortId: string; file: string }[];
    expect(listed.map((p) => p.shortId)).toEqual(
      expect.arrayContaining(['00000000000000a1', '00000000000000a2']),
    );
    // Pending pictures are not public: the operator reviews the file on disk.
    expect(listed.find((p) => p.shortId === '00000000000000a1')?.file).toBe(
      files('00000000000000a1')[0],
    );

    expect((await json('pictures', 'approve', '00000000000000a1')).body).toEqual({
      shortId: '00000000000000a1',
      stationId,
      status: 1,
    });
    expect((await json('pictures', 'reject', '00000000000000a2')).body).toMatchObject({
      status: -1,
    });
    // Rejection deletes the files; the approved picture keeps its own.
    expect(files('00000000000000a2').filter((f) => existsSync(f))).toEqual([]);
    expect(files('00000000000000a1').filter((f) => existsSync(f))).toHaveLength(2);
    const late = await json('pictures', 'approve', '00000000000000a2');
    expect(late.code).toBe(1);
    expect(String(late.body.error)).toContain('rejected');
    const rows = await db
      .selectFrom('stationPictures')
      .select(['id', 'status'])
      .where('stationId', '=', stationId)
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { id: '00000000000000a1', status: 1 },
      { id: '00000000000000a2', status: -1 },
    ]);
    const missing = await json('pictures', 'approve', 'ffffffffffffffff');
    expect(missing.code).toBe(1);
    expect(String(missing.body.error)).toContain('No picture');
  });

  it('imports satellites from a file', async () => {
    const file = join(server.ctx.config.dataDir, 'new-satellites.json');
    const entry = {
      name: 'Cli-Sat-1',
      displayName: 'CLI Sat 1',
      norad: 99001,
      status: 'Future',
      configurations: [{ mode: 'LoRa', freq: 436.1, sf: 10 }],
    };
    writeFileSync(file, JSON.stringify([entry]));
    const imported = await json('satellites', 'import', file);
    expect(imported).toEqual({ code: 0, body: { imported: 1, names: ['Cli-Sat-1'] } });
    const row = await server.ctx.database.db
      .selectFrom('satellites')
      .selectAll()
      .where('name', '=', 'Cli-Sat-1')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ displayName: 'CLI Sat 1', norad: 99001, status: 'Future' });

    writeFileSync(file, JSON.stringify({ name: 'Broken' }));
    const broken = await json('satellites', 'import', file);
    expect(broken.code).toBe(1);
    expect(String(broken.body.error)).toContain('displayName');
  });

  it('opts a satellite in to SatNOGS DB forwarding and out again, by command or catalogue file', async () => {
    const forward = () =>
      server.ctx.database.db
        .selectFrom('satellites')
        .select('satnogsForward')
        .where('name', '=', 'Norbi')
        .executeTakeFirstOrThrow()
        .then((r) => r.satnogsForward);
    expect(await forward()).toBe(0);
    expect(await json('satellites', 'satnogs-forward', 'Norbi')).toEqual({
      code: 0,
      body: { satellite: 'Norbi', satnogsForward: true },
    });
    expect(await forward()).toBe(1);
    // What waits, as an operator sees it.
    const queuedAt = Date.parse('2026-11-25T10:00:00Z');
    await server.ctx.database.db
      .insertInto('satnogsOutbox')
      .values([
        {
          packetId: 'p1',
          stationId: 's@1',
          queuedAt,
          nextAttemptAt: queuedAt,
          attempts: 7,
          lastError: 'HTTP 401: Invalid token.',
        },
        {
          packetId: 'p2',
          stationId: 's@1',
          queuedAt: queuedAt + 1,
          nextAttemptAt: queuedAt,
          attempts: 0,
          lastError: null,
        },
      ])
      .execute();
    expect(await json('satnogs', 'status')).toEqual({
      code: 0,
      body: {
        forwarding: false,
        waiting: 2,
        oldestQueuedAt: '2026-11-25T10:00:00.000Z',
        mostAttempts: 7,
        lastError: 'HTTP 401: Invalid token.',
        satellites: [{ name: 'Norbi', norad: 46494 }],
      },
    });
    await server.ctx.database.db.deleteFrom('satnogsOutbox').execute();
    expect((await json('satellites', 'satnogs-forward', 'Norbi', '--off')).code).toBe(0);
    expect(await forward()).toBe(0);
    expect((await json('satellites', 'satnogs-forward', 'No-Such-Sat')).code).toBe(1);

    const file = join(server.ctx.config.dataDir, 'forwarded.json');
    const entry = {
      name: 'Cli-Forwarded',
      displayName: 'CLI Forwarded',
      norad: 99002,
      status: 'Supported',
      configurations: [{ mode: 'LoRa', freq: 436.2, sf: 10 }],
    };
    const optIn = () =>
      server.ctx.database.db
        .selectFrom('satellites')
        .select('satnogsForward')
        .where('name', '=', 'Cli-Forwarded')
        .executeTakeFirstOrThrow()
        .then((r) => r.satnogsForward);
    writeFileSync(file, JSON.stringify({ ...entry, satnogsForward: true }));
    expect((await json('satellites', 'import', file)).code).toBe(0);
    expect(await optIn()).toBe(1);
    // An entry that does not say keeps what is stored.
    writeFileSync(file, JSON.stringify({ ...entry, description: 'edited' }));
    expect((await json('satellites', 'import', file)).code).toBe(0);
    expect(await optIn()).toBe(1);
  });

  it('imports a template from the file’s folder and refuses one outside it', async () => {
    const { dataDir } = server.ctx.config;
    const folder = join(dataDir, 'catalogue', 'satellites');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(dataDir, 'server-secret-copy'), 'secret-text');
    writeFileSync(join(folder, 'cli.liquid'), '<p>{{ packet.raw }}</p>');
    const file = join(folder, 'sat.json');
    const entry = (webTemplate: string) => ({
      name: 'Cli-Sat-T',
      displayName: 'CLI Sat T',
      norad: null,
      status: 'Future',
      configurations: [{ mode: 'LoRa', freq: 436.2 }],
      webTemplate,
    });
    const template = async () =>
      (
        await server.ctx.database.db
          .selectFrom('satellites')
          .select('webTemplate')
          .where('name', '=', 'Cli-Sat-T')
          .executeTakeFirst()
      )?.webTemplate;

    // Links and absolute names: catalogue-templates.test.ts.
    writeFileSync(file, JSON.stringify(entry('../../server-secret-copy')));
    const refused = await json('satellites', 'import', file);
    expect(refused.code).toBe(1);
    expect(String(refused.body.error)).toContain(
      'outside the catalogue: templates are read only from inside the imported folder or the seed',
    );
    expect(await template()).toBeUndefined();
    writeFileSync(file, JSON.stringify(entry('cli.liquid')));
    expect((await json('satellites', 'import', file)).code).toBe(0);
    expect(await template()).toBe('<p>{{ packet.raw }}</p>');
  }, 90_000);

  it('migrates and seeds idempotently', async () => {
    expect(await json('migrate')).toEqual({ code: 0, body: { migrations: [] } });
    const seeded = await json('seed');
    expect(seeded.code).toBe(0);
    expect(Number(seeded.body.satellites)).toBeGreaterThanOrEqual(40);
  });

  it('refuses bad arguments with exit code 2 and unknown users with 1', async () => {
    const noEmail = await json('user', 'add');
    expect(noEmail.code).toBe(2);
    expect(String(noEmail.body.error)).toContain('Email is required');
    const badEmail = await json('user', 'add', '--email', 'nope');
    expect(String(badEmail.body.error)).toContain('Invalid email format');
    expect((await json('satellites', 'launch')).code).toBe(2);
    expect((await json('user', 'add', '--email', 'a@b.co', '--colour', 'red')).code).toBe(2);
    const unknown = await json('user', 'login-link', '--email', 'ghost@example.org');
    expect(unknown.code).toBe(1);
    expect(String(unknown.body.error)).toContain('No user');
  });
});
