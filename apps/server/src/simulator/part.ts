// `npm start` runs SIMULATED_STATIONS virtual stations (default 200, 0 = off) against the embedded
// broker so that a fresh install shows a living network. Their owners are ordinary accounts in the
// same storage (the first two stations belong to the demo login, so it has stations to operate),
// and the stations use server auto-tune like real ones do.
import { BANDS } from '@tinygs/contracts';
import { DEMO_EMAIL } from '../accounts/demo-user';
import type { Part } from '../part';
import { enableAutoTuneWhereUnset } from '../repositories/stations';
import { planStations } from './layout';
import { addDemoPhotos } from './photos';
import { Simulator } from './simulator';
import { credentialsInProcess, simSatellitesFromCatalogue } from './sources';

// Time for every station to connect and its welcome to be stored before auto-tune is switched on.
const AUTO_TUNE_AFTER_MS = 15_000;
// Simulated stations, one per city, that get an approved demo photo for the Home carousel.
const DEMO_PHOTOS = 8;

export const simulatorPart: Part = {
  name: 'simulator',
  async start(ctx) {
    const count = ctx.config.simulatedStations;
    if (count === 0) return null;
    const log = ctx.log.child({ part: 'simulator' });
    const network = ctx.services.network;
    if (!network) {
      log.warn('the simulator needs the network part; no simulated stations');
      return null;
    }
    const satellites = simSatellitesFromCatalogue(network.catalogue.all());
    if (satellites.length === 0) {
      log.warn(
        'no satellite with an orbit in the catalogue; the simulated stations would hear nothing',
      );
    }
    const specs = planStations(count, {
      stationsPerOwner: 4,
      demoOwnerEmail: ctx.config.smtpUrl ? null : DEMO_EMAIL,
    });
    const credentials = await credentialsInProcess(
      ctx,
      specs.map((s) => s.ownerEmail),
    );
    const host = ['0.0.0.0', '::', ''].includes(network.mqtt.host)
      ? '127.0.0.1'
      : network.mqtt.host;
    const simulator = new Simulator({
      brokerUrl: `mqtt://${host.includes(':') ? `[${host}]` : host}:${network.mqtt.port}`,
      satellites,
      stations: specs.flatMap((spec) => {
        const c = credentials.get(spec.ownerEmail);
        return c ? [{ spec, credentials: c }] : [];
      }),
      log,
      selfTune: false,
    });
    simulator.start();
    log.info(
      { stations: simulator.stations.length, satellites: satellites.length },
      'simulated stations connecting',
    );

    const autoTune = setTimeout(() => {
      void (async () => {
        await network.flush();
        for (const band of BANDS) {
          const ids = simulator.stations.filter((s) => s.spec.band === band).map((s) => s.id);
          await enableAutoTuneWhereUnset(ctx.database.db, ids, band);
        }
        const firstOfEachCity = simulator.stations
          .filter((s) => s.spec.name.endsWith('_1'))
          .map((s) => s.id);
        await addDemoPhotos(ctx, firstOfEachCity, DEMO_PHOTOS);
      })().catch((err: unknown) =>
        log.warn({ err }, 'auto-tune or demo photos of simulated stations not set up'),
      );
    }, AUTO_TUNE_AFTER_MS);
    autoTune.unref();

    return {
      async stop() {
        clearTimeout(autoTune);
        await simulator.stop();
      },
    };
  },
};
