// Command-line arguments of the admin CLI, parsed with node:util and validated with zod.
import { parseArgs } from 'node:util';
import { LoginEmailSchema } from '@tinygs/contracts';
import { z } from 'zod';

export const USAGE = `Usage: npm run cli -- <command> [--json]

  user add --email E           create a user (or find it) and print its user id
  user login-link --email E    print a single-use login link (valid 15 minutes)
  user mqtt --email E          print the user's MQTT credentials
  pictures list-pending        list station pictures waiting for approval, with their files on disk
                               (a pending picture is served to its station's owner only)
  pictures approve ID          approve a pending picture (it becomes public)
  pictures reject ID           reject a picture: its files are deleted, the owner no longer sees it
  satellites import FILE       add or update satellites from a JSON file (one entry or an array)
  satellites import-satnogs --satellites FILE --transmitters FILE [--tle FILE]
  satellites import-satnogs --url BASE
                               add or update the satellites with a LoRa or FSK downlink from
                               SatNOGS DB documents (/api/satellites/, /api/transmitters/,
                               /api/tle/ as saved, or fetched from BASE, e.g. https://db.satnogs.org);
                               operator edits are kept, a second run changes nothing
  satellites refresh-tles [--force]
                               fetch element sets from TLE_SOURCES now and store the newer valid
                               ones; --force also takes sets older than the held ones (exit code 1
                               when no source answered)
  satellites satnogs-forward NAME [--off]
                               forward the satellite's CRC-passing frames to SatNOGS DB (with
                               SATNOGS_DB_URL set; the satellite needs a NORAD id), or stop with --off
  satnogs status               forwarding to SatNOGS DB: on or off, the satellites opted in, frames
                               waiting, the oldest, the most tries and the last error
  decode --satellite NAME --raw BASE64
                               decode one frame; --json prints {"parsed": ...}
  decode --file DOC.json       decode every packet of a live-API packets document ({packets:[...]});
                               --json prints one array of {"id", "parsed"} in document order
  packets import DOC.json      store a live-API packets document as historical packets (idempotent)
  seed                         load the satellite catalogue
  migrate                      bring the database schema up to date
  broker mosquitto-config --dir DIR --port P
                               write a Mosquitto 2 configuration (listener on P, dynamic-security
                               plugin and its state with a generated admin) into DIR; --json prints
                               {"config": "DIR/mosquitto.conf", "url": "mqtt://admin:...@127.0.0.1:P"}
                               for MQTT_BROKER_URL (optional --bind ADDRESS for the listener)

With --json each command prints exactly one JSON object. The CLI uses the same DATA_DIR and
DATABASE_URL as the server.`;

const email = LoginEmailSchema;
const pictureId = z
  .string({ error: 'ID is required' })
  .regex(/^[0-9a-f]{16}$/, 'picture id must be 16 hex digits');
const file = z.string({ error: 'FILE is required' }).min(1, 'FILE is required').max(4096);

export const CommandSchema = z.discriminatedUnion('command', [
  z.object({ command: z.literal('user add'), email }),
  z.object({ command: z.literal('user login-link'), email }),
  z.object({ command: z.literal('user mqtt'), email }),
  z.object({ command: z.literal('pictures list-pending') }),
  z.object({ command: z.literal('pictures approve'), id: pictureId }),
  z.object({ command: z.literal('pictures reject'), id: pictureId }),
  z.object({ command: z.literal('satellites import'), file }),
  z.object({ command: z.literal('satellites refresh-tles'), force: z.boolean() }),
  z.object({
    command: z.literal('satellites satnogs-forward'),
    name: z.string({ error: 'NAME is required' }).min(1, 'NAME is required').max(64),
    off: z.boolean(),
  }),
  z.object({ command: z.literal('satnogs status') }),
  z
    .object({
      command: z.literal('satellites import-satnogs'),
      satellitesFile: file.optional(),
      transmittersFile: file.optional(),
      tleFile: file.optional(),
      url: z
        .string()
        .max(500)
        .regex(/^https?:\/\/[^\s]+$/, '--url must be an http(s) address')
        .optional(),
    })
    .refine(
      (c) =>
        c.url !== undefined
          ? c.satellitesFile === undefined &&
            c.transmittersFile === undefined &&
            c.tleFile === undefined
          : c.satellitesFile !== undefined && c.transmittersFile !== undefined,
      {
        message:
          'import-satnogs takes --satellites FILE and --transmitters FILE (and --tle FILE), or --url BASE',
        path: ['arguments'],
      },
    ),
  z.object({ command: z.literal('packets import'), file }),
  z
    .object({
      command: z.literal('decode'),
      satellite: z.string().min(1).max(64).optional(),
      raw: z.string().max(4096).optional(),
      docFile: z.string().min(1).max(4096).optional(),
    })
    .refine(
      (c) => (c.docFile !== undefined) !== (c.satellite !== undefined && c.raw !== undefined),
      {
        message: 'decode takes either --file DOC.json or both --satellite NAME and --raw BASE64',
        path: ['arguments'],
      },
    ),
  z.object({ command: z.literal('seed') }),
  z.object({ command: z.literal('migrate') }),
  z.object({
    command: z.literal('broker mosquitto-config'),
    dir: z.string({ error: '--dir is required' }).min(1, '--dir is required'),
    port: z.coerce
      .number({ error: '--port is required' })
      .int()
      .min(1, '--port must be 1-65535')
      .max(65535, '--port must be 1-65535'),
    bind: z.string().min(1).max(100).optional(),
  }),
]);
export type CliCommand = z.infer<typeof CommandSchema>;

export class UsageError extends Error {}

export interface ParsedArgs {
  json: boolean;
  help: boolean;
  command: CliCommand | null;
}

/** Reads argv; throws UsageError with a readable message for anything malformed. */
export function readArgs(argv: string[]): ParsedArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        email: { type: 'string' },
        satellite: { type: 'string' },
        raw: { type: 'string' },
        file: { type: 'string' },
        dir: { type: 'string' },
        port: { type: 'string' },
        bind: { type: 'string' },
        force: { type: 'boolean', default: false },
        off: { type: 'boolean', default: false },
        satellites: { type: 'string' },
        transmitters: { type: 'string' },
        tle: { type: 'string' },
        url: { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const { values, positionals } = parsed;
  const json = values.json === true;
  if (values.help || positionals.length === 0) return { json, help: true, command: null };
  const [group, action, argument, ...extra] = positionals;
  const single = group === 'seed' || group === 'migrate' || group === 'decode';
  const name = single ? group : `${group} ${action ?? ''}`.trim();
  if (extra.length > 0 || (single && action !== undefined)) {
    throw new UsageError(
      `Unexpected arguments: ${(single ? positionals.slice(1) : extra).join(' ')}`,
    );
  }
  const result = CommandSchema.safeParse({
    command: name,
    email: values.email,
    id: argument,
    file: argument,
    satellite: values.satellite,
    raw: values.raw,
    docFile: values.file,
    dir: values.dir,
    port: values.port,
    bind: values.bind,
    force: values.force === true,
    name: argument,
    off: values.off === true,
    satellitesFile: values.satellites,
    transmittersFile: values.transmitters,
    tleFile: values.tle,
    url: values.url,
  });
  if (!result.success) {
    const issue = result.error.issues[0];
    const known = issue?.path[0] !== 'command';
    throw new UsageError(
      known ? `${String(issue?.path[0])}: ${issue?.message}` : `Unknown command: ${name}`,
    );
  }
  return { json, help: false, command: result.data };
}
