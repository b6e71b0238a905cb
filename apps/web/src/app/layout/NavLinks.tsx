import { Link as RouterLink, useLocation } from 'react-router';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import { alpha, type Theme } from '@mui/material/styles';
import { MAIN_LINKS, NAV_GROUPS, type NavLinkItem } from './navigation';

// The sidebar is on every first visit: it is drawn as a plain list of links with the ButtonBase
// the app loads anyway, styled like a dense MUI list, rather than with MUI's List components
// (about 4 KB gzip more on the first visit).
const LIST_SX = { listStyle: 'none', m: 0, py: 1, px: 0 } as const;
// Under its group's heading a list starts at once, as MUI's does under a subheader.
const GROUP_LIST_SX = { ...LIST_SX, pt: 0 } as const;

const ITEM_SX = {
  display: 'flex',
  justifyContent: 'flex-start',
  width: '100%',
  px: 2,
  py: 0.5,
  minHeight: 36,
  typography: 'body2',
  textAlign: 'left',
  color: 'text.primary',
  '&:hover': { bgcolor: 'action.hover' },
  '&[aria-current="page"]': {
    bgcolor: (theme: Theme) =>
      alpha(theme.palette.primary.main, theme.palette.action.selectedOpacity),
  },
  '&.Mui-focusVisible': { bgcolor: 'action.focus' },
} as const;

const SUBHEADER_SX = {
  px: 2,
  lineHeight: '48px',
  fontSize: '0.875rem',
  fontWeight: 500,
  color: 'text.secondary',
} as const;

function NavItem({ item, onNavigate }: { item: NavLinkItem; onNavigate?: () => void }) {
  const { pathname } = useLocation();
  const selected = item.to === '/' ? pathname === '/' : pathname === item.to;
  // Lists hold list items only (screen readers count them); the link sits inside the item.
  return (
    <li>
      <ButtonBase
        component={RouterLink}
        to={item.to}
        aria-current={selected ? 'page' : undefined}
        onClick={onNavigate}
        sx={ITEM_SX}
      >
        {item.label}
      </ButtonBase>
    </li>
  );
}

/** The navigation entries, shared by the wide sidebar and the small-screen drawer. */
export function NavLinks({ onNavigate }: { onNavigate?: () => void }) {
  return (
    <nav aria-label="Main navigation">
      <Box component="ul" sx={LIST_SX}>
        {MAIN_LINKS.map((item) => (
          <NavItem key={item.to} item={item} onNavigate={onNavigate} />
        ))}
      </Box>
      {NAV_GROUPS.map((group) => (
        <Box key={group.label} sx={{ borderTop: 1, borderColor: 'divider' }}>
          <Box id={`nav-group-${group.label}`} sx={SUBHEADER_SX}>
            {group.label}
          </Box>
          <Box component="ul" aria-labelledby={`nav-group-${group.label}`} sx={GROUP_LIST_SX}>
            {group.items.map((item) => (
              <NavItem key={item.to} item={item} onNavigate={onNavigate} />
            ))}
          </Box>
        </Box>
      ))}
    </nav>
  );
}
