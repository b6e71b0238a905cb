import { Link as RouterLink, useLocation } from 'react-router';
import Drawer from '@mui/material/Drawer';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Toolbar from '@mui/material/Toolbar';
import Divider from '@mui/material/Divider';
import { MAIN_LINKS, NAV_GROUPS, type NavLinkItem } from './navigation';

export const DRAWER_WIDTH = 240;

interface SideDrawerProps {
  open: boolean;
  /** 'persistent' beside the content on wide screens, 'temporary' over it on small ones. */
  variant: 'persistent' | 'temporary';
  onClose: () => void;
}

function NavItem({ item, onNavigate }: { item: NavLinkItem; onNavigate: () => void }) {
  const { pathname } = useLocation();
  const selected = item.to === '/' ? pathname === '/' : pathname.startsWith(item.to);
  return (
    <ListItemButton
      component={RouterLink}
      to={item.to}
      selected={selected}
      aria-current={selected ? 'page' : undefined}
      onClick={onNavigate}
    >
      <ListItemText primary={item.label} />
    </ListItemButton>
  );
}

export function SideDrawer({ open, variant, onClose }: SideDrawerProps) {
  // The temporary drawer closes after a choice; the persistent one stays where the user put it.
  const onNavigate = variant === 'temporary' ? onClose : () => undefined;
  return (
    <Drawer
      variant={variant}
      open={open}
      onClose={onClose}
      ModalProps={{ keepMounted: true }}
      sx={{
        width: DRAWER_WIDTH,
        flexShrink: 0,
        '& .MuiDrawer-paper': { width: DRAWER_WIDTH, boxSizing: 'border-box' },
      }}
    >
      <Toolbar />
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
    </Drawer>
  );
}
