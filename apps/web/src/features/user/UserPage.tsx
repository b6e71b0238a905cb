// PLACEHOLDER, to be replaced by the User Console (SPEC.md section 2, User page).
import Typography from '@mui/material/Typography';

export default function UserPage() {
  return (
    <Typography variant="h1" component="h1">
      User Console
    </Typography>
  );
}
