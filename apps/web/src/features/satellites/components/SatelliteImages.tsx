import Box from '@mui/material/Box';

export function SatelliteImages({ images, name }: { images: readonly string[]; name: string }) {
  if (images.length === 0) return null;
  return (
    <Box
      sx={{
        display: 'grid',
        gap: 1,
        gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))',
      }}
    >
      {images.map((src, i) => (
        <Box
          key={src}
          component="img"
          src={src}
          alt={`${name} image ${i + 1}`}
          loading="lazy"
          sx={{ width: '100%', borderRadius: 1, objectFit: 'cover', aspectRatio: '4 / 3' }}
        />
      ))}
    </Box>
  );
}
