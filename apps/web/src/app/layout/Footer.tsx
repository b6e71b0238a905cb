import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { SocialIcon } from '../../components/icons/icons';
import { LINKS, PRODUCT_NAME } from '../../config/site';

const EXTERNAL_LINKS = [
  { label: 'Source code', href: LINKS.sourceCode },
  { label: 'Wiki', href: LINKS.wiki },
  { label: 'FAQ', href: LINKS.faq },
  { label: 'Chat group', href: LINKS.chatGroup },
  { label: 'Telemetry channel', href: LINKS.telemetryChannel },
];

export function Footer() {
  return (
    <Box
      component="footer"
      sx={{ borderTop: 1, borderColor: 'divider', px: 2, py: 3, mt: 'auto', textAlign: 'center' }}
    >
      <Stack
        direction="row"
        spacing={2}
        useFlexGap
        sx={{ flexWrap: 'wrap', justifyContent: 'center', mb: 1 }}
      >
        {EXTERNAL_LINKS.map((link) => (
          <Link key={link.label} href={link.href} target="_blank" rel="noopener noreferrer">
            {link.label}
          </Link>
        ))}
        <Link
          href={LINKS.social}
          target="_blank"
          rel="noopener noreferrer"
          sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
        >
          <SocialIcon size={20} />
          Social
        </Link>
        <Link component={RouterLink} to="/terms">
          Terms
        </Link>
      </Stack>
      <Typography variant="body2" color="text.secondary">
        {PRODUCT_NAME}: open-source network of amateur satellite ground stations.
      </Typography>
    </Box>
  );
}
