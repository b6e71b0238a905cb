// Small screens only, loaded the first time the menu opens: MUI's Drawer brings Modal, focus
// trap and transitions that the first paint does not need.
import Drawer from '@mui/material/Drawer';
import Toolbar from '@mui/material/Toolbar';
import { NavLinks } from './NavLinks';
import { DRAWER_WIDTH } from './navigation';

interface SideDrawerProps {
  open: boolean;
  onClose: () => void;
}

export default function SideDrawer({ open, onClose }: SideDrawerProps) {
  return (
    <Drawer
      variant="temporary"
      open={open}
      onClose={onClose}
      sx={{ '& .MuiDrawer-paper': { width: DRAWER_WIDTH, boxSizing: 'border-box' } }}
    >
      <Toolbar />
      <NavLinks onNavigate={onClose} />
    </Drawer>
  );
}
