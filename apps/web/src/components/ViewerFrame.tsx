// The 3D orbit viewer (apps/viewer, its own page at /viewer) in an iframe with a full-screen
// toggle, as the satellite and station pages embed it.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useEffect, useRef, useState } from 'react';
import { FullscreenIcon, FullscreenExitIcon } from './icons/uiIcons';

/** The viewer's address: the satellite by catalogue name, optionally seen from a ground station. */
export function viewerUrl(satellite: string, groundStation?: readonly [number, number]): string {
  const gs = groundStation ? `&gs=${groundStation[0]},${groundStation[1]}` : '';
  return `/viewer?sat=${encodeURIComponent(satellite)}${gs}`;
}

export function ViewerFrame(props: {
  satellite: string;
  groundStation?: readonly [number, number];
  title: string;
  heightPx: { xs: number; md: number };
}) {
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
        height: full ? '100%' : props.heightPx,
        bgcolor: 'common.black',
        borderRadius: full ? 0 : 1,
        overflow: 'hidden',
      }}
    >
      <Box
        component="iframe"
        title={props.title}
        src={viewerUrl(props.satellite, props.groundStation)}
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
