// What each admin CLI command does. Every command returns one JSON-ready object (printed as is with
// --json) and the lines a person reads otherwise.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { decodeFrame } from '@tinygs/decoders';
import { z } from 'zod';
import type { AppContext } from '../context';
import { migrateToLatest } from '../db/migrate';
import { issueLoginLink } from '../accounts/login';
import { picturesDir, removePictureFiles } from '../accounts/pictures';
import { ensureUserByEmail, mqttCredentialsOf } from '../accounts/users';
import {
  findPicture,
  listPendingPictures,
  PICTURE_STATUS,
  pictureFiles,
  pictureSrc,
  setPictureStatus,
} from '../repositories/pictures';
import { findUserByEmail } from '../repositories/users';
import {
  CatalogueEntrySchema,
  readTemplateWithin,
  seedCatalogue,
  SEED_DIR,
  TemplateOutsideError,
  upsertSatellites,
} from '../seed/catalogue';
import {
  decodeDocument,
  DocumentError,
  importLiveDocument,
  readLiveDocument,
  registerCatalogueDecoders,
} from '../importer/live-document';
import { writeMosquittoConfig } from '../network/mosquitto-config';
import { outboxSummary, setSatelliteForwarding } from '../repositories/satnogs-outbox';
import type { RefreshReport } from '../elements/refresh';
import type { ImportReport, SatnogsDocuments } from '../importer/satnogs-db';
import type { CliCommand } from './args';

export interface CommandOutput {
  /** An object for most commands; `decode --file` prints an array. */
  json: unknown;
  text: string;
  /** non-zero: the command ran but did not do its job (printed output says why) */
  exitCode?: number;
}

/** A failure the operator can fix (unknown e-mail, bad file); printed without a stack trace. */
export class CliError extends Error {}

async function userByEmail(ctx: AppContext, email: string) {
  const user = await findUserByEmail(ctx.database.db, email);
  if (!user)
    throw new CliError(
      `No user with the e-mail address ${email}. Create one with: user add --email ${email}`,
    );
  return user;
}

function readJson(path: string): unknown {
  if (!existsSync(path)) throw new CliError(`File not found: ${path}`);
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new CliError(
      `${path} is not valid JSON: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

/**
 * A template named by an entry lives beside the file, in a templates/ folder next to it, or in the
 * seed, and only there: a name leading out of these folders is refused.
 */
function readTemplate(fileDir: string, name: string | null): string {
  if (!name) return '';
  const roots = [fileDir, join(fileDir, '..', 'templates'), join(SEED_DIR, 'templates')];
  let text: string | null;
  try {
    text = readTemplateWithin(roots, name);
  } catch (err) {
    if (err instanceof TemplateOutsideError) throw new CliError(err.message);
    throw err;
  }
  if (text === null)
    throw new CliError(`Template ${name} not found next to the file or in the seed templates`);
  return text;
}

async function importSatellites(ctx: AppContext, file: string): Promise<CommandOutput> {
  const path = resolve(file);
  const data = readJson(path);
  const parsed = z.array(CatalogueEntrySchema).safeParse(Array.isArray(data) ? data : [data]);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new CliError(`${path} does not hold valid catalogue entries:\n${lines.join('\n')}`);
  }
  const items = parsed.data.map((entry) => ({
    entry,
    template: readTemplate(dirname(path), entry.webTemplate),
  }));
  await upsertSatellites(ctx.database, items, 'import');
  const names = items.map((i) => i.entry.name);
  return {
    json: { imported: names.length, names },
    text: `Imported ${names.length} satellite(s): ${names.join(', ')}`,
  };
}

async function satnogsForward(ctx: AppContext, name: string, on: boolean): Promise<CommandOutput> {
  if (!(await setSatelliteForwarding(ctx.database.db, name, on)))
    throw new CliError(`No satellite named ${name}`);
  const note = ctx.config.satnogs ? '' : ' (SATNOGS_DB_URL is not set: nothing is sent yet)';
  return {
    json: { satellite: name, satnogsForward: on },
    text: on
      ? `${name}: CRC-passing frames are forwarded to SatNOGS DB${note}`
      : `${name}: frames are no longer forwarded to SatNOGS DB`,
  };
}

async function satnogsStatus(ctx: AppContext): Promise<CommandOutput> {
  const summary = await outboxSummary(ctx.database.db);
  const forwarding = ctx.config.satnogs !== null;
  const oldest = summary.oldestQueuedAt === null ? null : new Date(summary.oldestQueuedAt);
  const names = summary.satellites.map((s) =>
    s.norad === null ? `${s.name} (no NORAD id)` : s.name,
  );
  return {
    json: { forwarding, ...summary, oldestQueuedAt: oldest?.toISOString() ?? null },
    text: [
      forwarding
        ? 'Forwarding to SatNOGS DB is on'
        : 'Forwarding to SatNOGS DB is off (SATNOGS_DB_URL is not set)',
      `Satellites opted in: ${names.length ? names.join(', ') : 'none'}`,
      `Frames waiting: ${summary.waiting}${oldest ? `, the oldest since ${oldest.toISOString()}` : ''}`,
      ...(summary.mostAttempts > 0 ? [`Most tries of one frame: ${summary.mostAttempts}`] : []),
      ...(summary.lastError ? [`Last error: ${summary.lastError}`] : []),
    ].join('\n'),
  };
}

function refreshText(report: RefreshReport): string {
  const lines = report.sources.map(
    (s) =>
      `${s.source}: ${s.requests} request(s), ${s.fetched} fetched, ${s.notModified} not modified, ${s.failed} failed${s.errors.length ? ` (${s.errors.join('; ')})` : ''}`,
  );
  lines.push(`Updated ${report.updated.length} satellite(s)`);
  for (const u of report.updated)
    lines.push(
      `  ${u.satellite}: epoch ${u.epoch} from ${u.source} (was ${u.previousEpoch ?? 'none'})`,
    );
  lines.push(`Unchanged: ${report.unchanged}`);
  if (report.rejectedTotal > 0) lines.push(`Rejected ${report.rejectedTotal} set(s)`);
  for (const r of report.rejected)
    lines.push(`  ${r.satellite ?? `NORAD ${r.norad ?? '?'}`} from ${r.source}: ${r.reason}`);
  if (!report.ok) lines.push('No source answered; every satellite keeps the set it had.');
  return lines.join('\n');
}

async function refreshTles(ctx: AppContext, force: boolean): Promise<CommandOutput> {
  if (ctx.config.elementSets.sources.length === 0)
    throw new CliError('TLE_SOURCES is not set: name the element-set sources (docs/OPERATIONS.md)');
  // Loaded on demand (SGP4 and the fetchers), like the SatNOGS DB import below.
  const { refreshElementSets } = await import('../elements/refresh');
  const report = await refreshElementSets(ctx, { force });
  return { json: report, text: refreshText(report), exitCode: report.ok ? 0 : 1 };
}

function importText(report: ImportReport): string {
  const lines = [
    `Read ${report.satellites} satellite(s) and ${report.transmitters} transmitter(s): ${report.candidates} with a LoRa or FSK downlink the stations receive.`,
  ];
  if (!report.changed) {
    lines.push('Nothing changed: the catalogue already holds what these documents say.');
    return lines.join('\n');
  }
  lines.push(`Created ${report.created.length}`);
  for (const c of report.created)
    lines.push(
      `  ${c.name} (NORAD ${c.norad ?? 'none'}, ${c.status}, ${c.configurations} configuration(s))`,
    );
  lines.push(`Updated ${report.updated.length}`);
  for (const u of report.updated) lines.push(`  ${u.name}: ${u.changed.join(', ')}`);
  lines.push(`Unchanged: ${report.unchanged}`);
  if (report.elementSets)
    lines.push(
      `Element sets: ${report.elementSets.updated.length} updated, ${report.elementSets.unchanged} unchanged, ${report.elementSets.rejected} rejected`,
    );
  return lines.join('\n');
}

async function importFromSatnogs(
  ctx: AppContext,
  command: Extract<CliCommand, { command: 'satellites import-satnogs' }>,
): Promise<CommandOutput> {
  const { fetchSatnogs, importSatnogs, parseSatnogsJson, readSatnogsFile, SatnogsImportError } =
    await import('../importer/satnogs-db');
  try {
    let documents: SatnogsDocuments;
    if (command.url) {
      documents = await fetchSatnogs(command.url, {
        timeoutMs: ctx.config.elementSets.fetchTimeoutMs,
        userAgent: `${ctx.config.productName} network server (${ctx.config.publicUrl})`,
      });
    } else {
      const read = async (file: string, what: string) =>
        parseSatnogsJson(await readSatnogsFile(resolve(file)), what);
      documents = {
        satellites: await read(command.satellitesFile ?? '', 'satellites'),
        transmitters: await read(command.transmittersFile ?? '', 'transmitters'),
        ...(command.tleFile ? { tle: await readSatnogsFile(resolve(command.tleFile)) } : {}),
      };
    }
    const report = await importSatnogs(ctx, documents);
    return { json: report, text: importText(report) };
  } catch (err) {
    if (err instanceof SatnogsImportError) throw new CliError(err.message);
    throw err;
  }
}

async function setStatus(ctx: AppContext, id: string, status: number): Promise<CommandOutput> {
  const picture = await findPicture(ctx.database.db, id);
  if (!picture) throw new CliError(`No picture with id ${id}`);
  const approving = status === PICTURE_STATUS.approved;
  if (approving && picture.status === PICTURE_STATUS.rejected)
    throw new CliError(`Picture ${id} was rejected and its files deleted; it cannot be approved`);
  await setPictureStatus(ctx.database.db, id, status);
  // A rejected picture is kept as a row (it no longer counts against the station's ten) and its
  // files go: nobody is ever served it again.
  if (!approving) removePictureFiles(ctx, [id]);
  // The station's public page lists approved pictures (this reaches the servers through Redis
  // when instances share it; otherwise their pages show it within a minute).
  ctx.events.publish('stations-changed', { stationIds: [picture.stationId] });
  return {
    json: { shortId: id, stationId: picture.stationId, status },
    text: approving
      ? `Approved picture ${id} of ${picture.stationId}; it is public now`
      : `Rejected picture ${id} of ${picture.stationId}; its files are deleted`,
  };
}

function liveDocument(file: string) {
  try {
    return readLiveDocument(resolve(file));
  } catch (err) {
    if (err instanceof DocumentError) throw new CliError(err.message);
    throw err;
  }
}

async function decode(
  ctx: AppContext,
  command: Extract<CliCommand, { command: 'decode' }>,
): Promise<CommandOutput> {
  await registerCatalogueDecoders(ctx.database.db);
  if (command.docFile) {
    const decoded = decodeDocument(liveDocument(command.docFile));
    const recognised = decoded.filter((d) => d.parsed !== null).length;
    return {
      json: decoded,
      text: `${recognised} of ${decoded.length} packets decoded\n${JSON.stringify(decoded, null, 2)}`,
    };
  }
  const raw = command.raw ?? '';
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(raw) || raw.length % 4 !== 0)
    throw new CliError('--raw must be base64');
  const parsed = decodeFrame(command.satellite ?? '', Buffer.from(raw, 'base64'));
  return {
    json: { parsed },
    text: parsed ? JSON.stringify(parsed, null, 2) : 'Unrecognized packet',
  };
}

export async function runCommand(ctx: AppContext, command: CliCommand): Promise<CommandOutput> {
  switch (command.command) {
    case 'decode':
      return decode(ctx, command);
    case 'packets import': {
      const result = await importLiveDocument(ctx.database.db, liveDocument(command.file));
      const unknown = result.unknownSatellites.length
        ? `; not in the catalogue: ${result.unknownSatellites.join(', ')}`
        : '';
      return {
        json: result,
        text: `Imported ${result.imported} packet(s), skipped ${result.skipped}${unknown}`,
      };
    }
    case 'user add': {
      const { user, created } = await ensureUserByEmail(ctx, command.email);
      return { json: { userId: user.id, created }, text: user.id };
    }
    case 'user login-link': {
      const user = await userByEmail(ctx, command.email);
      const url = await issueLoginLink(ctx, user.id);
      return { json: { url }, text: url };
    }
    case 'user mqtt': {
      const creds = mqttCredentialsOf(ctx, await userByEmail(ctx, command.email));
      return { json: creds, text: `user: ${creds.user}\npass: ${creds.pass}` };
    }
    case 'pictures list-pending': {
      const rows = await listPendingPictures(ctx.database.db);
      const pictures = rows.map((r) => ({
        shortId: r.id,
        stationId: r.stationId,
        origName: r.origName,
        size: r.size,
        createdAt: r.createdAt,
        // where it will be public once approved; until then only the owner is served it
        src: pictureSrc(r.id),
        file: join(picturesDir(ctx), pictureFiles(r.id).full),
      }));
      const text = pictures.length
        ? pictures.map((p) => `${p.shortId}  ${p.stationId}  ${p.origName}  ${p.file}`).join('\n')
        : 'No pictures waiting for approval.';
      return { json: { pictures }, text };
    }
    case 'pictures approve':
      return setStatus(ctx, command.id, PICTURE_STATUS.approved);
    case 'pictures reject':
      return setStatus(ctx, command.id, PICTURE_STATUS.rejected);
    case 'satellites import':
      return importSatellites(ctx, command.file);
    case 'satellites import-satnogs':
      return importFromSatnogs(ctx, command);
    case 'satellites refresh-tles':
      return refreshTles(ctx, command.force);
    case 'satellites satnogs-forward':
      return satnogsForward(ctx, command.name, !command.off);
    case 'satnogs status':
      return satnogsStatus(ctx);
    case 'seed': {
      const satellites = await seedCatalogue(ctx.database, { demo: ctx.config.demo });
      return { json: { satellites }, text: `Catalogue loaded: ${satellites} satellites` };
    }
    case 'broker mosquitto-config': {
      const written = await writeMosquittoConfig(command).catch((err: unknown) => {
        throw new CliError(err instanceof Error ? err.message : String(err));
      });
      return {
        json: written,
        text: `Configuration: ${written.config}\nStart it with: mosquitto -c ${written.config}\nThen set MQTT_BROKER_URL=${written.url}`,
      };
    }
    case 'migrate': {
      const migrations = await migrateToLatest(ctx.database.db, ctx.database.dialect);
      const text = migrations.length
        ? `Applied: ${migrations.join(', ')}`
        : 'The database is up to date.';
      return { json: { migrations }, text };
    }
  }
}
