import { formatStationId } from '@tinygs/contracts';
import { Box, FormControlLabel, Paper, Switch } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { useMap } from 'react-leaflet';
import { BaseMap } from './BaseMap';
import { StationMarkers } from '../lib/layers/StationMarkers';
import type { StationsMapProps } from '../lib/types';
import { SelectionOverlay, type SelectionLayers } from './SelectionOverlay';

/** The stations route's map: every station, and the coverage of the selected one. */
export default function StationsMap({
  stations,
  selected,
  onSelect,
  height = 600,
}: StationsMapProps) {
  const [layers, setLayers] = useState<SelectionLayers>({ radiation: true, heatmap: true });
  return (
    <Box sx={{ position: 'relative' }}>
      <BaseMap height={height}>
        <StationsLayer stations={stations} selected={selected} onSelect={onSelect} />
        {selected && <SelectionOverlay station={selected} layers={layers} />}
      </BaseMap>
      {selected && (
        <Paper sx={{ position: 'absolute', left: 10, bottom: 24, zIndex: 1000, px: 1.5, py: 0.5 }}>
          {(['radiation', 'heatmap'] as const).map((key) => (
            <FormControlLabel
              key={key}
              label={key === 'radiation' ? 'Radiation diagram' : 'Heat map'}
              control={
                <Switch
                  size="small"
                  checked={layers[key]}
                  onChange={(e) => setLayers((l) => ({ ...l, [key]: e.target.checked }))}
                />
              }
            />
          ))}
        </Paper>
      )}
    </Box>
  );
}

function StationsLayer({ stations, selected, onSelect }: Omit<StationsMapProps, 'height'>) {
  const map = useMap();
  const markers = useRef<StationMarkers | null>(null);
  const onSelectRef = useRef(onSelect);
  useEffect(() => {
    onSelectRef.current = onSelect;
  }, [onSelect]);

  useEffect(() => {
    const m = new StationMarkers(
      map,
      { onClick: (s) => onSelectRef.current(s), onMiss: () => onSelectRef.current(null) },
      4.5,
    );
    markers.current = m;
    return () => {
      m.remove();
      markers.current = null;
    };
  }, [map]);

  useEffect(() => {
    markers.current?.update(stations);
  }, [stations]);

  const selectedId = selected ? formatStationId(selected.name, selected.userId) : null;
  useEffect(() => {
    markers.current?.select(selectedId);
  }, [selectedId]);

  return null;
}
