// The station owner's flows in a real browser against the real server, with a client that plays
// the station firmware (e2e/src/firmware.ts): the user console dialogs, creating a station by
// one-time code, editing it with a picture, operating it (the station receives `begine`), TX and
// the test frame, deleting it once it is offline, and changing the account's MQTT password.
import { STORAGE_KEYS } from '@tinygs/contracts';
import mqtt from 'mqtt';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { collectErrors, openBrowser, type Browser } from '../src/browser';
import {
  collectCredentials,
  connectFirmware,
  welcome,
  type FirmwareStation,
} from '../src/firmware';
import {
  getJson,
  PICTURE_PNG,
  randomOtp,
  sessionOf,
  submitCreation,
  waitForStation,
  type Session,
} from '../src/owner';
import { cli, logInWithLink, loginLink, visible } from '../src/support';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const mqttPort = inject('mqttPort');
const suffix = Math.random().toString(36).slice(2, 6);
const EMAIL = `owner-${suffix}@tinygs.localhost`;

describe('station owner in the browser', () => {
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let session: Session;
  let station: FirmwareStation | undefined;
  let stationId = '';

  beforeAll(async () => {
    browser = await openBrowser(inject('chromiumPath'));
    cli(dataDir, baseUrl, ['user', 'add', '--email', EMAIL]);
    page = await browser.newPage({ width: 1366, height: 900 });
    errors = collectErrors(page);
    await logInWithLink(page, baseUrl, loginLink(dataDir, baseUrl, EMAIL));
    session = await sessionOf(page);
    // A station made the way the NEW STATION dialog makes one, so the console flows below do not
    // depend on that dialog (it has a test of its own).
    const otp = randomOtp();
    const name = `E2E_Ops_${suffix}`;
    await submitCreation(baseUrl, session, { otp, name, location: [40.4168, -3.7038] });
    station = await connectFirmware(mqttPort, await collectCredentials(baseUrl, otp));
    stationId = `${name}@${session.userId}`;
    await waitForStation(baseUrl, session, stationId, (s) => s.status === 1);
  });
  afterAll(async () => {
    station?.client.end(true);
    await browser?.close();
  });

  async function openStation(): Promise<void> {
    await page.goto(`${baseUrl}/station/${stationId}`, { waitUntil: 'load' });
    await visible(page, page.getByText(stationId), `station card ${stationId}`);
  }

  it('shows the broker credentials the CLI reports, and saves e-mail preferences', async () => {
    await page.goto(`${baseUrl}/user/${session.userId}`, { waitUntil: 'load' });
    await visible(page, page.getByText('User Console'), 'User Console');
    const creds = cli<{ user: string; pass: string }>(dataDir, baseUrl, [
      'user',
      'mqtt',
      '--email',
      EMAIL,
    ]);
    await (
      await visible(page, page.getByRole('button', { name: 'CREDENTIALS' }), 'CREDENTIALS')
    ).click();
    const credDialog = page.getByRole('dialog');
    await visible(page, credDialog.getByText(creds.pass, { exact: true }), 'the MQTT password');
    await expect(credDialog.getByText(creds.user, { exact: true }).count()).resolves.toBe(1);
    await credDialog.getByRole('button', { name: 'Close' }).click();
    await credDialog.waitFor({ state: 'hidden' });

    await (
      await visible(page, page.getByRole('button', { name: /^e-?mail$/i }), 'e-mail button')
    ).click();
    const mailDialog = page.getByRole('dialog');
    const field = await visible(page, mailDialog.getByRole('textbox').first(), 'e-mail field');
    await field.fill('not-an-email');
    await visible(page, mailDialog.getByText('E-mail must be valid'), 'the e-mail error');
    await field.fill(EMAIL);
    const terms = mailDialog.getByRole('checkbox');
    if ((await terms.count()) > 0 && !(await terms.first().isChecked()))
      await terms.first().check();
    // Offline alerts: switched on, after 30 minutes.
    await mailDialog.getByRole('switch', { name: 'Offline alerts' }).check();
    await mailDialog.getByRole('combobox', { name: /offline for/ }).click();
    await (
      await visible(page, page.getByRole('option', { name: '30 minutes' }), '30 minutes')
    ).click();
    await mailDialog.getByRole('button', { name: /^Save/ }).click();
    await visible(page, page.getByText('Config saved!'), 'Config saved!');
    const user = await getJson<{ email: string; acceptedTerms: boolean }>(
      baseUrl,
      `/v1/user?userId=${session.userId}`,
      session,
    );
    expect(user).toMatchObject({
      email: EMAIL,
      acceptedTerms: true,
      offlineAlerts: { enabled: true, delayMinutes: 30 },
    });
  });

  it(
    'creates a station with the one-time code the station shows',
    { timeout: 120_000 },
    async () => {
      const otp = randomOtp();
      const name = `E2E_New_${suffix}`;
      await page.goto(`${baseUrl}/user/${session.userId}`, { waitUntil: 'load' });
      await (
        await visible(page, page.getByRole('button', { name: 'NEW STATION' }), 'NEW STATION')
      ).click();
      const dialog = page.getByRole('dialog');
      await (await visible(page, dialog.getByLabel(/Station Name/i), 'Station Name')).fill(name);
      await dialog.getByLabel(/OTP/i).first().fill(otp);
      await dialog
        .getByLabel(/Latitude/i)
        .first()
        .fill('41.387');
      await dialog
        .getByLabel(/Longitude/i)
        .first()
        .fill('2.170');
      const passwords = dialog.getByLabel(/password/i);
      await passwords.nth(0).fill('e2e-admin-pw');
      await passwords.nth(1).fill('e2e-admin-pw');
      const zone = dialog.getByLabel(/time ?zone/i).first();
      await zone.fill('Europe/Madrid');
      const option = page.getByRole('option', { name: /Europe\/Madrid/ });
      if (await option.count()) await option.first().click();
      await dialog
        .getByRole('button', { name: /create|submit|start|send/i })
        .first()
        .click();

      // Meanwhile the station polls for its credentials and connects with them.
      const creds = await collectCredentials(baseUrl, otp, 30_000);
      expect(creds.mqtt.user).toBe(session.userId);
      expect(creds.config).toMatchObject({
        stationName: name,
        adminPw: 'e2e-admin-pw',
        latitude: '41.387',
        longitude: '2.17',
      });
      expect(creds.config.tz).toMatch(/^CET-1CEST/);
      const created = await connectFirmware(mqttPort, creds);
      try {
        // The dialog polls /v1/station_created every 20 s and ends with the server's success text,
        // which names the station.
        await visible(
          page,
          dialog.getByRole('alert').filter({ hasText: name }),
          'the creation outcome',
          60_000,
        );
        const outcome = await getJson<{ status: string }>(baseUrl, '/v1/station_created', session);
        expect(outcome.status).toBe('success');
        await page.goto(`${baseUrl}/user/${session.userId}`, { waitUntil: 'load' });
        await visible(page, page.getByText(`${name}@${session.userId}`), 'the new station card');
      } finally {
        created.client.end(true);
      }
    },
  );

  it("offers Ground Control at the local IP on the owner's cards in the console and the list", async () => {
    // The firmware reported its local IP in tele/welcome (e2e/src/firmware.ts).
    const ip = String(welcome([0, 0]).ip);
    await page.goto(`${baseUrl}/user/${session.userId}`, { waitUntil: 'load' });
    const card = page.getByTestId('station-card').filter({ hasText: stationId });
    const onConsole = await visible(
      page,
      card.getByRole('link', { name: 'Ground Control' }),
      'Ground Control on the User Console card',
    );
    expect(await onConsole.getAttribute('href')).toBe(`http://${ip}`);

    await page.goto(`${baseUrl}/stations?view=list`, { waitUntil: 'load' });
    await (await visible(page, page.getByLabel('Search'), 'the stations search')).fill(stationId);
    const listed = page.getByTestId('station-card').filter({ hasText: stationId });
    const list = await visible(
      page,
      listed.getByRole('link', { name: 'Ground Control' }),
      'Ground Control on the Stations list card',
    );
    expect(await list.getAttribute('href')).toBe(`http://${ip}`);
  });

  it('changes the MQTT password: the broker refuses the old one, the station with its own stays', async () => {
    await page.goto(`${baseUrl}/user/${session.userId}`, { waitUntil: 'load' });
    const old = cli<{ user: string; pass: string }>(dataDir, baseUrl, [
      'user',
      'mqtt',
      '--email',
      EMAIL,
    ]);
    const login = (password: string) =>
      mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, {
        username: old.user,
        password,
        protocolVersion: 4,
        reconnectPeriod: 0,
        connectTimeout: 5_000,
      });
    const legacy = await login(old.pass);
    const gone = new Promise<void>((resolve) => legacy.once('close', () => resolve()));
    await (
      await visible(page, page.getByRole('button', { name: 'CREDENTIALS' }), 'CREDENTIALS')
    ).click();
    const credDialog = page.getByRole('dialog');
    await visible(page, credDialog.getByText(old.pass, { exact: true }), 'the MQTT password');
    await credDialog.getByRole('button', { name: 'Change password' }).click();
    const ask = await visible(page, credDialog.getByRole('alert'), 'the warning');
    await ask.getByRole('button', { name: 'Change password' }).click();
    await visible(page, credDialog.getByText('Password changed.'), 'the confirmation');

    const fresh = cli<{ user: string; pass: string }>(dataDir, baseUrl, [
      'user',
      'mqtt',
      '--email',
      EMAIL,
    ]);
    expect(fresh.pass).not.toBe(old.pass);
    await visible(page, credDialog.getByText(fresh.pass, { exact: true }), 'the new password');
    await gone;
    await expect(login(old.pass)).rejects.toThrow();
    (await login(fresh.pass)).end(true);
    expect(station?.client.connected).toBe(true);
    await credDialog.getByRole('button', { name: 'Close' }).click();
    await credDialog.waitFor({ state: 'hidden' });
  });

  it('edits the description, opts out of SatNOGS DB forwarding and uploads a picture', async () => {
    await openStation();
    await (
      await visible(page, page.getByRole('button', { name: /Edit station/i }), 'Edit station')
    ).click();
    await visible(page, page.getByText('Edit station parameters'), 'the edit form');
    await page
      .getByLabel(/Description/i)
      .first()
      .fill('Roof dipole, e2e');
    await page
      .getByRole('combobox', { name: /Antenna/ })
      .first()
      .click();
    await page.getByRole('option', { name: 'Dipole', exact: true }).click();
    await page.getByRole('switch', { name: 'Share frames with SatNOGS DB' }).click();
    await page.locator('input[type="file"]').first().setInputFiles({
      name: 'roof.png',
      mimeType: 'image/png',
      buffer: PICTURE_PNG,
    });
    await page
      .getByRole('button', { name: /^Save$/ })
      .first()
      .click();
    const saved = await waitForStation(
      baseUrl,
      session,
      stationId,
      (s) =>
        s.description === 'Roof dipole, e2e' &&
        s.antenna === 'Dipole' &&
        s.satnogsOptOut === true &&
        (s.pictures?.length ?? 0) === 1,
    );
    expect(saved.pictures?.[0]?.status).toBe(0);
    await openStation();
    await visible(
      page,
      page.getByText('Some of the files are waiting for aproval. This usually takes a few hours.'),
      'the pending-picture warning',
    );
  });

  it('operates the station: manual tuning reaches it as begine', async () => {
    if (!station) throw new Error('no station');
    await openStation();
    await (await visible(page, page.getByRole('button', { name: /^Operate$/ }), 'Operate')).click();
    const dialog = page.getByRole('dialog');
    await visible(page, dialog.getByText(/Config saved/), 'Config saved after loading');
    await dialog.getByRole('combobox', { name: /Auto tune/i }).click();
    await page.getByRole('option', { name: /Disabled/ }).click();
    // Manual Tuning is enabled only when auto tune is Disabled; a new frequency is a change.
    await (
      await visible(page, dialog.getByLabel(/Frequency/), 'the frequency field')
    ).fill('436.71');
    const save = await visible(page, dialog.getByRole('button', { name: 'Save config' }), 'Save');
    const since = station.commands.length;
    await save.click();
    const begine = await station.waitForCommand('begine', since);
    const modem = JSON.parse(begine.payload.toString('utf8')) as Record<string, unknown>;
    expect(['LoRa', 'FSK']).toContain(modem.mode);
    expect(modem.freq).toBe(436.71);
    await visible(page, dialog.getByRole('button', { name: 'Config saved' }), 'Config saved');
    const stored = await waitForStation(baseUrl, session, stationId, (s) => s.autoTune === 0);
    expect(JSON.parse(stored.modem_conf ?? '{}')).toMatchObject({ freq: modem.freq });
  });

  it('picks a Supported satellite: its defaults fill the form and reach the station as begine', async () => {
    if (!station) throw new Error('no station');
    const supported = page.waitForResponse(
      (res) => res.url().endsWith('/v1/satellites/?status=Supported') && res.ok(),
    );
    await openStation();
    await (await visible(page, page.getByRole('button', { name: /^Operate$/ }), 'Operate')).click();
    const dialog = page.getByRole('dialog');
    const list = (await (await supported).json()) as {
      name: string;
      status: string;
      configurations: { mode: string; freq: number; sf?: number; NORAD?: number }[];
    }[];
    const fossa = list.find((s) => s.name === 'FossaSat-2E11');
    const first = fossa?.configurations[0];
    if (!first) throw new Error('FossaSat-2E11 is not in /v1/satellites/?status=Supported');
    expect(list.every((s) => s.status === 'Supported')).toBe(true);

    const autoTune = dialog.getByRole('combobox', { name: /Auto tune/i });
    if (!(await autoTune.textContent())?.includes('Disabled')) {
      await autoTune.click();
      await page.getByRole('option', { name: /Disabled/ }).click();
    }
    const picker = dialog.getByRole('combobox', { name: 'Satellite' });
    await picker.fill('Fossa');
    await page.getByRole('option', { name: /FossaSat-2E11/ }).click();
    // The first configuration's values, each still editable.
    const freq = dialog.getByLabel(/Frequency/);
    expect(Number(await freq.inputValue())).toBe(first.freq);
    expect(Number(await dialog.getByLabel('Spreading factor').inputValue())).toBe(first.sf);
    expect(Number(await dialog.getByLabel('NORAD').inputValue())).toBe(first.NORAD);
    expect(await freq.isEditable()).toBe(true);
    const stored = (await page.evaluate(
      `localStorage.getItem(${JSON.stringify(STORAGE_KEYS.satelliteSelection)})`,
    )) as string | null;
    expect(stored).toBe('FossaSat-2E11');

    const since = station.commands.length;
    await dialog.getByRole('button', { name: 'Save config' }).click();
    const begine = await station.waitForCommand('begine', since);
    expect(JSON.parse(begine.payload.toString('utf8'))).toMatchObject({
      mode: first.mode,
      sat: 'FossaSat-2E11',
      NORAD: first.NORAD,
      freq: first.freq,
      sf: first.sf,
    });
    await visible(page, dialog.getByRole('button', { name: 'Config saved' }), 'Config saved');
  });

  it('transmits a text and a test frame', async () => {
    if (!station) throw new Error('no station');
    // The TX controls live with Operate; the dialog may still be open from the previous test.
    if ((await page.getByRole('dialog').count()) === 0) {
      await openStation();
      await page.getByRole('button', { name: /^Operate$/ }).click();
    }
    const dialog = page.getByRole('dialog');
    const text = await visible(page, dialog.getByLabel(/Text payload/i), 'the TX text field');
    await text.fill('HELLO TINYGS');
    let since = station.commands.length;
    await dialog.getByRole('button', { name: /^(send|transmit) text/i }).click();
    const tx = await station.waitForCommand('tx', since);
    expect(tx.payload.toString('latin1')).toBe('HELLO TINYGS');

    since = station.commands.length;
    const test = dialog.getByRole('button', { name: /test frame|test packet|send test/i }).first();
    await test.click();
    const frame = await station.waitForCommand('tx', since);
    expect(frame.payload.toString('latin1').startsWith('TinyGS-test ')).toBe(true);
    // Locked for 20 s after a test frame (SPEC.md section 4).
    expect(await test.isDisabled()).toBe(true);
  });

  it('deletes the station only once it is offline, then returns to the user console', async () => {
    if (!station) throw new Error('no station');
    await openStation();
    const del = await visible(page, page.getByRole('button', { name: /^Delete$/ }), 'Delete');
    expect(await del.isDisabled()).toBe(true);
    await station.powerOff();
    await waitForStation(baseUrl, session, stationId, (s) => s.status === 0);
    await openStation();
    await page.getByRole('button', { name: /^Delete$/ }).click();
    const confirm = page.getByRole('dialog');
    await visible(page, confirm.getByText(/This cannot be undone/), 'the delete confirmation');
    await confirm
      .getByRole('button', { name: /delete|yes|confirm/i })
      .last()
      .click();
    await page.waitForURL(new RegExp(`/user/${session.userId}$`), { timeout: 15_000 });
    const res = await fetch(`${baseUrl}/v1/station/${stationId}`);
    expect(res.status).toBe(404);
    expect(errors).toEqual([]);
  });
});
