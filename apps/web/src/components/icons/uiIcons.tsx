// The dozen interface glyphs the app uses (menu, arrows, theme, fullscreen...), drawn here on the
// 24-unit grid of MUI's SvgIcon so they size and colour like any other MUI icon. Each is a single
// path; holes use the even-odd rule.
import { createSvgIcon } from '@mui/material/utils';

function glyph(d: string, name: string, evenOdd = false) {
  return createSvgIcon(<path d={d} fillRule={evenOdd ? 'evenodd' : undefined} />, name);
}

export const MenuIcon = /* @__PURE__ */ glyph('M3 6h18v2H3zM3 11h18v2H3zM3 16h18v2H3z', 'Menu');

export const MoreVertIcon = /* @__PURE__ */ glyph(
  'M12 3a2 2 0 1 1 0 4a2 2 0 1 1 0-4zM12 10a2 2 0 1 1 0 4a2 2 0 1 1 0-4zM12 17a2 2 0 1 1 0 4a2 2 0 1 1 0-4z',
  'MoreVert',
);

export const AccountCircleIcon = /* @__PURE__ */ glyph(
  'M12 2a10 10 0 1 0 0 20a10 10 0 1 0 0-20zM12 6a3.5 3.5 0 1 0 0 7a3.5 3.5 0 1 0 0-7zM6.5 17.5c1.3-1.9 3.3-3 5.5-3s4.2 1.1 5.5 3c-1.4 1.5-3.4 2.5-5.5 2.5s-4.1-1-5.5-2.5z',
  'AccountCircle',
  true,
);

export const ChevronLeftIcon = /* @__PURE__ */ glyph(
  'M15.4 5.4 14 4l-8 8 8 8 1.4-1.4L8.8 12z',
  'ChevronLeft',
);

export const ChevronRightIcon = /* @__PURE__ */ glyph(
  'M8.6 5.4 10 4l8 8-8 8-1.4-1.4 6.6-6.6z',
  'ChevronRight',
);

export const ArrowBackIcon = /* @__PURE__ */ glyph(
  'M20 11H7.8l5.6-5.6L12 4l-8 8 8 8 1.4-1.4L7.8 13H20z',
  'ArrowBack',
);

export const FullscreenIcon = /* @__PURE__ */ glyph(
  'M4 4h6v2H6v4H4zM14 4h6v6h-2V6h-4zM4 14h2v4h4v2H4zM18 14h2v6h-6v-2h4z',
  'Fullscreen',
);

export const FullscreenExitIcon = /* @__PURE__ */ glyph(
  'M8 4h2v6H4V8h4zM14 4h2v4h4v2h-6zM4 14h6v6H8v-4H4zM14 14h6v2h-4v4h-2z',
  'FullscreenExit',
);

export const DeleteIcon = /* @__PURE__ */ glyph(
  'M9 3h6l1 1h4v2H4V4h4zM6 8h12l-1 13H7zM9 10v9h2v-9zM13 10v9h2v-9z',
  'Delete',
  true,
);

export const DownloadIcon = /* @__PURE__ */ glyph(
  'M11 3h2v9.2l3.3-3.3 1.4 1.4L12 16l-5.7-5.7 1.4-1.4 3.3 3.3zM4 18h16v2H4z',
  'Download',
);

export const LightModeIcon = /* @__PURE__ */ glyph(
  'M12 8a4 4 0 1 1 0 8a4 4 0 1 1 0-8zM11 1h2v3h-2zM11 20h2v3h-2zM1 11h3v2H1zM20 11h3v2h-3zM4.2 5.6l1.4-1.4 2.2 2.2-1.4 1.4zM16.2 17.6l1.4-1.4 2.2 2.2-1.4 1.4zM16.2 6.4l2.2-2.2 1.4 1.4-2.2 2.2zM4.2 18.4l2.2-2.2 1.4 1.4-2.2 2.2z',
  'LightMode',
);

export const DarkModeIcon = /* @__PURE__ */ glyph('M12 3a9 9 0 1 0 9 9 7 7 0 0 1-9-9z', 'DarkMode');
