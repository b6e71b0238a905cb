// One of the product's icons as inline SVG (see iconShapes.ts). Decorative by default; pass a
// title to give it an accessible name.
import type { CSSProperties } from 'react';
import { ICON_COLOURS, type IconShape, type IconTheme } from './iconShapes';

export interface ProductIconProps {
  shape: IconShape;
  /** light: white fill (the default); dark: black fill */
  theme?: IconTheme;
  /** px */
  size?: number;
  /** overrides the theme's fill colour */
  color?: string;
  title?: string;
  style?: CSSProperties;
}

export function ProductIcon({
  shape,
  theme = 'light',
  size = 24,
  color,
  title,
  style,
}: ProductIconProps) {
  const colours = ICON_COLOURS[theme];
  return (
    <svg
      viewBox="0 0 24 24"
      width={size}
      height={size}
      role={title ? 'img' : undefined}
      aria-hidden={title ? undefined : true}
      aria-label={title}
      style={{ flexShrink: 0, ...style }}
    >
      <path
        d={shape.fill}
        fill={color ?? colours.fill}
        stroke={colours.outline}
        strokeWidth={1}
        strokeLinejoin="round"
      />
      <path
        d={shape.stroke}
        fill="none"
        stroke={colours.outline}
        strokeWidth={1.2}
        strokeLinecap="round"
      />
    </svg>
  );
}
