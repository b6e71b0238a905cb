// Loaded the first time a small-screen visitor opens the top bar's overflow menu.
import { Link as RouterLink } from 'react-router';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';

export interface OverflowAction {
  label: string;
  onClick?: () => void;
  to?: string;
  href?: string;
}

interface OverflowMenuProps {
  id: string;
  anchor: HTMLElement | null;
  actions: OverflowAction[];
  onClose: () => void;
}

export default function OverflowMenu({ id, anchor, actions, onClose }: OverflowMenuProps) {
  return (
    <Menu id={id} anchorEl={anchor} open={anchor !== null} onClose={onClose}>
      {actions.map((action) => {
        const onClick = () => {
          onClose();
          action.onClick?.();
        };
        if (action.to) {
          return (
            <MenuItem key={action.label} component={RouterLink} to={action.to} onClick={onClick}>
              {action.label}
            </MenuItem>
          );
        }
        if (action.href) {
          return (
            <MenuItem
              key={action.label}
              component="a"
              href={action.href}
              target="_blank"
              rel="noopener noreferrer"
              onClick={onClick}
            >
              {action.label}
            </MenuItem>
          );
        }
        return (
          <MenuItem key={action.label} onClick={onClick}>
            {action.label}
          </MenuItem>
        );
      })}
    </Menu>
  );
}
