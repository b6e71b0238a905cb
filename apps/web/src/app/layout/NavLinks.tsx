import { Link as RouterLink, useLocation } from 'react-router';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Divider from '@mui/material/Divider';
import { MAIN_LINKS, NAV_GROUPS, type NavLinkItem } from './navigation';

function NavItem({ item, onNavigate }: { item: NavLinkItem; onNavigate?: () => void }) {
  const { pathname } = useLocation();
  const selected = item.to === '/' ? pathname === '/' : pathname === item.to;
  // Lists hold list items only (screen readers count them); the link sits inside the item.
  return (
    <ListItem disablePadding>
      <ListItemButton
        component={RouterLink}
        to={item.to}
        selected={selected}
        aria-current={selected ? 'page' : undefined}
        onClick={onNavigate}
      >
        <ListItemText primary={item.label} />
      </ListItemButton>
    </ListItem>
  );
}

/** The navigation entries, shared by the wide sidebar and the small-screen drawer. */
export function NavLinks({ onNavigate }: { onNavigate?: () => void }) {
  return (
    <nav aria-label="Main navigation">
      <List dense>
        {MAIN_LINKS.map((item) => (
          <NavItem key={item.to} item={item} onNavigate={onNavigate} />
        ))}
      </List>
      {NAV_GROUPS.map((group) => (
        <div key={group.label}>
          <Divider />
          <List
            dense
            aria-labelledby={`nav-group-${group.label}`}
            subheader={
              <ListSubheader id={`nav-group-${group.label}`} disableSticky>
                {group.label}
              </ListSubheader>
            }
          >
            {group.items.map((item) => (
              <NavItem key={item.to} item={item} onNavigate={onNavigate} />
            ))}
          </List>
        </div>
      ))}
    </nav>
  );
}
