import type { StationListItem } from '@tinygs/contracts';
import { Box, Paper, Typography } from '@mui/material';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { BaseMap } from './BaseMap';
import { LiveActivity } from '../lib/activity';
import { useSoundMode } from '../hooks/useSoundMode';
import { SoundModeSelect } from './SoundModeSelect';
import { playPacketSound } from '../lib/synth';
import type { WorldMapProps } from '../lib/types';
import { SatelliteFocusPanel, StationFocusPanel } from './FocusPanel';
import type { FocusResult, TickResult } from '../lib/worker/propagator';
import { Ticker } from './Ticker';
import { useFreshTles } from '../api/useFreshTles';
import { useWorldData } from '../api/useWorldData';
import { WorldLayers } from './WorldLayers';

const overlay = { position: 'absolute', zIndex: 1000 } as const;

/** Home page map: live satellites, stations and packet pings. */
export default function WorldMap({ height = 500 }: WorldMapProps) {
  const data = useWorldData();
  const tles = useFreshTles(data);
  const activity = useMemo(() => new LiveActivity(), []);
  useEffect(() => () => activity.dispose(), [activity]);
  const [soundMode, setSoundMode] = useSoundMode();
  const soundRef = useRef(soundMode);
  useEffect(() => {
    soundRef.current = soundMode;
  }, [soundMode]);

  const [focus, setFocus] = useState(-1);
  const [focusResult, setFocusResult] = useState<FocusResult | null>(null);
  const [station, setStation] = useState<StationListItem | null>(null);
  const [missing, setMissing] = useState<readonly string[]>([]);

  const onTick = useCallback(
    (result: TickResult) => {
      setFocusResult(result.focus);
      const names = (data?.satellites ?? [])
        .filter((s, i) => s.tleMissing || Number.isNaN(result.coords[i * 3] ?? Number.NaN))
        .map((s) => s.displayName);
      setMissing((prev) => (prev.join('\n') === names.join('\n') ? prev : names));
    },
    [data],
  );
  const clear = useCallback(() => {
    setFocus(-1);
    setStation(null);
  }, []);
  const focusSatellite = useCallback((index: number) => {
    setStation(null);
    setFocus(index);
  }, []);
  const onNewPacket = useCallback(() => playPacketSound(soundRef.current), []);

  // The map subtree only changes with data or focus: 5-s ticks re-render the panels, not the map.
  const map = useMemo(
    () => (
      <BaseMap height={height}>
        {data && (
          <WorldLayers
            data={data}
            tles={tles}
            activity={activity}
            focus={focus}
            onFocus={focusSatellite}
            onTick={onTick}
            onNewPacket={onNewPacket}
            onStationClick={setStation}
            onMapClick={clear}
          />
        )}
      </BaseMap>
    ),
    [height, clear, data, tles, activity, focus, focusSatellite, onTick, onNewPacket],
  );

  const focused = focus >= 0 ? data?.satellites[focus] : undefined;
  return (
    <Box>
      <Box sx={{ position: 'relative', height }}>
        {map}
        <Box sx={{ ...overlay, top: 10, left: 56 }}>
          <Ticker activity={activity} />
        </Box>
        <Paper sx={{ ...overlay, bottom: 24, left: 10, p: 1, pt: 1.5 }}>
          <SoundModeSelect value={soundMode} onChange={setSoundMode} />
        </Paper>
        <Box sx={{ ...overlay, top: 10, right: 10 }}>
          {focused && (
            <SatelliteFocusPanel
              satellite={focused}
              focus={focusResult?.index === focus ? focusResult : null}
              onClose={clear}
            />
          )}
          {station && <StationFocusPanel station={station} activity={activity} onClose={clear} />}
        </Box>
      </Box>
      {missing.length > 0 && (
        <Box sx={{ mt: 1 }} data-testid="tle-missing">
          {missing.map((name) => (
            <Typography key={name} variant="body2" color="text.secondary">
              {name} (TLE missing)
            </Typography>
          ))}
        </Box>
      )}
    </Box>
  );
}
