// Station pictures (SPEC.md section 4): approved ones are shown, pending ones as a placeholder with
// a warning, skipped (negative status) ones not at all.
import type { Picture } from '@tinygs/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

export const PENDING_PICTURES_WARNING =
  'Some of the files are waiting for aproval. This usually takes a few hours.';

export function visiblePictures(pictures: readonly Picture[]): Picture[] {
  return pictures.filter((p) => p.status >= 0);
}

export function PicturePlaceholder({ name }: { name: string }) {
  return (
    <Box
      role="img"
      aria-label={`${name} (waiting for approval)`}
      sx={{
        width: '100%',
        height: '100%',
        minHeight: 120,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        bgcolor: 'action.hover',
        color: 'text.secondary',
        p: 1,
        textAlign: 'center',
      }}
    >
      <Typography variant="body2">Waiting for approval</Typography>
    </Box>
  );
}

export function StationPictures({ pictures }: { pictures: readonly Picture[] }) {
  const shown = visiblePictures(pictures);
  if (shown.length === 0) return null;
  return (
    <Box>
      {shown.some((p) => p.status === 0) && (
        <Alert severity="warning" sx={{ mb: 1 }}>
          {PENDING_PICTURES_WARNING}
        </Alert>
      )}
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))',
          gap: 1,
        }}
      >
        {shown.map((p) => (
          <Box key={p.shortId} sx={{ aspectRatio: '4 / 3', overflow: 'hidden', borderRadius: 1 }}>
            {p.status === 0 ? (
              <PicturePlaceholder name={p.origName} />
            ) : (
              <Box
                component="img"
                src={p.src}
                alt={p.origName}
                loading="lazy"
                sx={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }}
              />
            )}
          </Box>
        ))}
      </Box>
    </Box>
  );
}
