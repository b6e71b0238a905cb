import Typography from '@mui/material/Typography';

/** /april/:id only shows a title (SPEC.md section 2). */
export default function AprilPage() {
  return (
    <Typography variant="h1" component="h1" sx={{ textAlign: 'center', py: 6 }}>
      April Fools!
    </Typography>
  );
}
