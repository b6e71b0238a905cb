// Everything that moves on the world map is driven from here, imperatively: markers are Leaflet
// objects updated in place, so a 5-s position update or a live event never re-renders React.
import {
  MAP_POSITION_REFRESH_MS,
  type NewPacketEvent,
  type StationListItem,
} from '@tinygs/contracts';
import { useEffect, useRef } from 'react';
import { useMap } from 'react-leaflet';
import { FocusOverlay } from '../lib/layers/FocusOverlay';
import { PingAnimator } from '../lib/layers/PingAnimator';
import { SatelliteMarkers } from '../lib/layers/SatelliteMarkers';
import { StationMarkers } from '../lib/layers/StationMarkers';
import type { LiveActivity } from '../lib/activity';
import { connectLiveEvents } from '../api/eventStream';
import { createMapEngine } from '../lib/worker/mapEngine';
import type { TickResult } from '../lib/worker/propagator';
import type { WorldData } from '../api/useWorldData';

export interface WorldLayersProps {
  data: WorldData;
  /** the element sets to draw with, newer than `data.tles` once the map reloaded them */
  tles: WorldData['tles'];
  activity: LiveActivity;
  /** index into data.satellites, -1 for none */
  focus: number;
  onFocus: (index: number) => void;
  onTick: (result: TickResult) => void;
  onNewPacket: (event: NewPacketEvent) => void;
  onStationClick: (station: StationListItem) => void;
  /** a click on the map that hit no satellite and no station */
  onMapClick: () => void;
}

export function WorldLayers({
  data,
  tles,
  activity,
  focus,
  onFocus,
  onTick,
  onNewPacket,
  onStationClick,
  onMapClick,
}: WorldLayersProps) {
  const map = useMap();
  const focusRef = useRef(focus);
  const handlers = useRef({ onFocus, onTick, onNewPacket, onStationClick, onMapClick });
  const tickNow = useRef<() => void>(() => undefined);
  const engineRef = useRef<ReturnType<typeof createMapEngine> | null>(null);

  useEffect(() => {
    handlers.current = { onFocus, onTick, onNewPacket, onStationClick, onMapClick };
  });

  useEffect(() => {
    const satellites = new SatelliteMarkers(map, data.satellites, (i) =>
      handlers.current.onFocus(i),
    );
    const stations = new StationMarkers(map, {
      onClick: (s) => handlers.current.onStationClick(s),
      onMiss: () => handlers.current.onMapClick(),
      covered: (point) => satellites.covers(point),
    });
    stations.update(data.stations);
    // The canvas draws the markers in the next animation frame (Leaflet asked for it first): the
    // frame after says how many are on screen, for tests and the first-visit benchmark.
    const container = map.getContainer();
    const drawn = requestAnimationFrame(() => {
      container.dataset.stationsDrawn = String(data.stations.length);
    });
    const overlay = new FocusOverlay(map);
    const engine = createMapEngine();
    engine.load(data.tles);
    engineRef.current = engine;

    let latest = 0;
    const tick = () => {
      const id = ++latest;
      void engine.tick({ timeMs: Date.now(), focus: focusRef.current }).then((result) => {
        // A focus change may have asked again meanwhile; only the newest answer is drawn.
        if (id !== latest) return;
        satellites.update(result.coords, focusRef.current);
        if (result.focus && result.focus.index === focusRef.current)
          overlay.show(result.focus.path, result.focus.footprint);
        else overlay.clear();
        handlers.current.onTick(result);
      });
    };
    tickNow.current = tick;
    tick();
    const interval = setInterval(tick, MAP_POSITION_REFRESH_MS);

    const unsubscribeReceiving = activity.subscribe(() =>
      stations.markReceiving((s) => activity.isReceiving(s)),
    );
    const pings = new PingAnimator(map, activity, {
      satellite: (name) => satellites.position(satellites.indexOf(name)),
      station: (id) => stations.position(id),
    });
    // The stream opens once the worker holds the list the markers were drawn from: it then starts
    // with a small `kept` event instead of the whole list again, when nothing changed meanwhile.
    let disconnect: (() => void) | null = null;
    let closed = false;
    const listen = (known?: string) => {
      if (closed) return;
      disconnect = connectLiveEvents(
        {
          onNewPacket: (event) => {
            activity.onNewPacket(event);
            handlers.current.onNewPacket(event);
          },
          onStationsDelta: (text) =>
            engine.stations(text).then((update) => {
              if (update === 'resync') return 'resync';
              if (update) stations.applyDelta(update);
              else console.warn('Dropped malformed stations-delta event');
              return 'ok';
            }),
        },
        undefined,
        known,
      );
    };
    engine.seed(data.stations).then(
      (digest) => listen(digest ?? undefined),
      () => listen(),
    );

    return () => {
      cancelAnimationFrame(drawn);
      delete container.dataset.stationsDrawn;
      clearInterval(interval);
      tickNow.current = () => undefined;
      engineRef.current = null;
      closed = true;
      disconnect?.();
      unsubscribeReceiving();
      pings.remove();
      engine.dispose();
      overlay.clear();
      satellites.remove();
      stations.remove();
    };
  }, [map, data, activity]);

  useEffect(() => {
    focusRef.current = focus;
    tickNow.current();
  }, [focus]);

  // Element sets reloaded while the map is open: the same markers, propagated from the new sets.
  useEffect(() => {
    if (!engineRef.current || tles === data.tles) return;
    engineRef.current.load(tles);
    tickNow.current();
  }, [tles, data.tles]);

  return null;
}
