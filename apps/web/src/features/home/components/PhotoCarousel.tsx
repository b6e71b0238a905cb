import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import type { CarouselPhoto } from '../api/useCarouselPhotos';
import { ChevronLeftIcon, ChevronRightIcon } from '../../../components/icons/uiIcons';

const ADVANCE_MS = 6_000;

function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function'
    ? window.matchMedia('(prefers-reduced-motion: reduce)').matches
    : false;
}

export function PhotoCarousel({ photos }: { photos: CarouselPhoto[] }) {
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);
  const count = photos.length;

  useEffect(() => {
    if (count < 2 || paused || prefersReducedMotion()) return;
    const timer = window.setInterval(() => setIndex((i) => (i + 1) % count), ADVANCE_MS);
    return () => window.clearInterval(timer);
  }, [count, paused]);

  if (count === 0) return null;
  const current = photos[index % count];
  if (!current) return null;
  const step = (delta: number) => setIndex((i) => (i + delta + count) % count);

  return (
    <Box
      component="section"
      aria-roledescription="carousel"
      aria-label="Photos"
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
      sx={{
        position: 'relative',
        height: { xs: 180, sm: 260, md: 320 },
        borderRadius: 2,
        overflow: 'hidden',
        bgcolor: 'grey.900',
      }}
    >
      <RouterLink to={current.to} aria-label={current.caption}>
        <Box
          component="img"
          src={current.src}
          alt={current.caption}
          sx={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }}
        />
      </RouterLink>
      <Typography
        aria-live="polite"
        sx={{
          position: 'absolute',
          left: 0,
          right: 0,
          bottom: 0,
          px: 2,
          py: 1,
          color: 'common.white',
          background: 'linear-gradient(transparent, rgba(0,0,0,0.7))',
        }}
      >
        {current.caption} ({(index % count) + 1}/{count})
      </Typography>
      {count > 1 && (
        <>
          <IconButton
            aria-label="Previous photo"
            onClick={() => step(-1)}
            sx={{
              position: 'absolute',
              top: '50%',
              left: 8,
              transform: 'translateY(-50%)',
              color: 'common.white',
              bgcolor: 'rgba(0,0,0,0.35)',
            }}
          >
            <ChevronLeftIcon />
          </IconButton>
          <IconButton
            aria-label="Next photo"
            onClick={() => step(1)}
            sx={{
              position: 'absolute',
              top: '50%',
              right: 8,
              transform: 'translateY(-50%)',
              color: 'common.white',
              bgcolor: 'rgba(0,0,0,0.35)',
            }}
          >
            <ChevronRightIcon />
          </IconButton>
        </>
      )}
    </Box>
  );
}
