import { useEffect, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FullscreenIcon from '@mui/icons-material/Fullscreen';
import FullscreenExitIcon from '@mui/icons-material/FullscreenExit';

/** The 3D viewer (apps/viewer) in an iframe, with a full-screen toggle. */
export function OrbitViewer({ satellite }: { satellite: string }) {
  const container = useRef<HTMLDivElement>(null);
  // Browsers without the Fullscreen API (older iOS Safari) get a fixed overlay instead.
  const [overlay, setOverlay] = useState(false);
  const [native, setNative] = useState(false);

  useEffect(() => {
    const onChange = () => setNative(document.fullscreenElement === container.current);
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
    const element = container.current;
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
      ref={container}
      sx={{
        position: overlay ? 'fixed' : 'relative',
        inset: overlay ? 0 : undefined,
        zIndex: overlay ? (theme) => theme.zIndex.modal : undefined,
        bgcolor: 'common.black',
        height: full ? '100%' : { xs: 320, md: 480 },
        borderRadius: full ? 0 : 1,
        overflow: 'hidden',
      }}
    >
      <Box
        component="iframe"
        title={`3D orbit of ${satellite}`}
        src={`/viewer?sat=${encodeURIComponent(satellite)}`}
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
