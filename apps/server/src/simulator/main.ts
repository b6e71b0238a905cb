// `npm run simulate -- --stations N [--broker mqtt://host:port] [--api http://host:port]`: virtual
// stations against a server running elsewhere. Satellites come from its public API, owner accounts
// from the admin CLI on this machine (same DATA_DIR / DATABASE_URL as that server).
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { createLogger } from '../logger';
import { planStations } from './layout';
import { Simulator } from './simulator';
import { credentialsViaCli, satellitesViaApi } from './sources';

const USAGE =
  'Usage: npm run simulate -- --stations N [--broker mqtt://host:port] [--api http://host:port]';

const ArgsSchema = z.object({
  stations: z.coerce.number().int().min(1).max(100_000),
  broker: z.string().regex(/^mqtts?:\/\//, 'must start with mqtt:// or mqtts://'),
  api: z.url(),
});

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      stations: { type: 'string', default: '200' },
      broker: { type: 'string', default: 'mqtt://127.0.0.1:1883' },
      api: { type: 'string', default: 'http://127.0.0.1:8080' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const parsed = ArgsSchema.safeParse(values);
  if (!parsed.success) {
    console.error(
      `${parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('\n')}\n${USAGE}`,
    );
    process.exit(2);
  }
  const args = parsed.data;
  const log = createLogger(process.env.LOG_LEVEL ?? 'info');
  const api = args.api.replace(/\/$/, '');
  const satellites = await satellitesViaApi(api);
  log.info({ satellites: satellites.length }, `satellites from ${api}`);
  // Fewer owners than in-process: each one costs two CLI runs.
  const specs = planStations(args.stations, { stationsPerOwner: 25, demoOwnerEmail: null });
  const credentials = await credentialsViaCli(specs.map((s) => s.ownerEmail));
  const simulator = new Simulator({
    brokerUrl: args.broker,
    satellites,
    stations: specs.flatMap((spec) => {
      const c = credentials.get(spec.ownerEmail);
      return c ? [{ spec, credentials: c }] : [];
    }),
    log,
    selfTune: true,
  });
  simulator.start();
  log.info(
    `${simulator.stations.length} simulated stations connecting to ${args.broker}; Ctrl-C stops them`,
  );
  const report = setInterval(() => {
    const online = simulator.stations.filter((s) => s.connected).length;
    log.info({ online, framesSent: simulator.rxSent }, 'simulation running');
  }, 60_000);
  const stop = async () => {
    clearInterval(report);
    await simulator.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
