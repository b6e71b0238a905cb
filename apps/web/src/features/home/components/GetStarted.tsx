import { Link as RouterLink } from 'react-router';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import Box from '@mui/material/Box';
import { LINKS } from '../../../config/site';

const EXTERNAL = [
  { label: 'Build a station (quick start)', href: LINKS.quickStart },
  { label: 'Join the chat group', href: LINKS.chatGroup },
  { label: 'Read the FAQ', href: LINKS.faq },
];

export function GetStarted() {
  return (
    <Box component="section" aria-labelledby="get-started-heading">
      <Typography id="get-started-heading" variant="h2" component="h2" gutterBottom>
        Get Started
      </Typography>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1.5}
        useFlexGap
        sx={{ flexWrap: 'wrap' }}
      >
        {EXTERNAL.map((link) => (
          <Button
            key={link.label}
            variant="outlined"
            href={link.href}
            target="_blank"
            rel="noopener noreferrer"
          >
            {link.label}
          </Button>
        ))}
        <Button variant="contained" component={RouterLink} to="/stations">
          See the stations
        </Button>
        <Button variant="contained" component={RouterLink} to="/satellites">
          Browse satellites
        </Button>
      </Stack>
    </Box>
  );
}
