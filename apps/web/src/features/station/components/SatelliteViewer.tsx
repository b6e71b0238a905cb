// The 3D satellite viewer (apps/viewer) for the station's satellite, seen from the station, in an
// iframe with a full-screen toggle.
import FullscreenIcon from '@mui/icons-material/Fullscreen';
import FullscreenExitIcon from '@mui/icons-material/FullscreenExit';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useEffect, useRef, useState } from 'react';

export function viewerUrl(satellite: string, [lat, lng]: readonly [number, number]): string {
  return `/viewer?sat=${encodeURIComponent(satellite)}&gs=${lat},${lng}`;
}

export function SatelliteViewer(props: { satellite: string; location: readonly [number, number] }) {
  const frame = useRef<HTMLDivElement>(null);
  const [native, setNative] = useState(false);
  // Without the Fullscreen API (older iOS Safari) the frame covers the window instead.
  const [overlay, setOverlay] = useState(false);

  useEffect(() => {
    const onChange = () => setNative(document.fullscreenElement === frame.current);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  useEffect(() => {
    if (!overlay) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOverlay(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [overlay]);

  const full = native || overlay;
  const toggle = () => {
    const element = frame.current;
    if (full) {
      if (document.fullscreenElement) void document.exitFullscreen();
      setOverlay(false);
    } else if (element && typeof element.requestFullscreen === 'function') {
      element.requestFullscreen().catch(() => setOverlay(true));
    } else {
      setOverlay(true);
    }
  };

  return (
    <Box
      ref={frame}
      sx={{
        position: overlay ? 'fixed' : 'relative',
        inset: overlay ? 0 : undefined,
        zIndex: overlay ? (theme) => theme.zIndex.modal : undefined,
        height: full ? '100%' : { xs: 300, md: 420 },
        bgcolor: 'common.black',
        borderRadius: full ? 0 : 1,
        overflow: 'hidden',
      }}
    >
      <Box
        component="iframe"
        title={`Satellite viewer: ${props.satellite}`}
        src={viewerUrl(props.satellite, props.location)}
        loading="lazy"
        sx={{ border: 0, width: '100%', height: '100%', display: 'block' }}
      />
      <Button
        variant="contained"
        size="small"
        onClick={toggle}
        startIcon={full ? <FullscreenExitIcon /> : <FullscreenIcon />}
        sx={{ position: 'absolute', top: 8, right: 8 }}
      >
        {full ? 'Exit full screen' : 'Full screen'}
      </Button>
    </Box>
  );
}
