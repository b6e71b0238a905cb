import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { TERMS_SECTIONS, TERMS_UPDATED } from './termsContent';
import { PRODUCT_NAME } from '../../config/site';

export function TermsPage() {
  return (
    <Box sx={{ maxWidth: 860 }}>
      <Typography variant="h1" component="h1" gutterBottom>
        Terms of use and conditions
      </Typography>
      <Typography color="text.secondary" paragraph>
        Last updated {TERMS_UPDATED}. By using {PRODUCT_NAME} or connecting a station to it you
        accept these terms.
      </Typography>
      <Box component="nav" aria-label="Terms sections" sx={{ mb: 3 }}>
        <Box component="ol" sx={{ pl: 3, m: 0 }}>
          {TERMS_SECTIONS.map((section) => (
            <li key={section.id}>
              <Link href={`#${section.id}`}>{section.title}</Link>
            </li>
          ))}
        </Box>
      </Box>
      {TERMS_SECTIONS.map((section, i) => (
        <Box component="section" key={section.id} aria-labelledby={section.id} sx={{ mb: 3 }}>
          <Typography id={section.id} variant="h2" component="h2" gutterBottom>
            {i + 1}. {section.title}
          </Typography>
          {section.paragraphs.map((text) => (
            <Typography key={text} paragraph>
              {text}
            </Typography>
          ))}
        </Box>
      ))}
    </Box>
  );
}
