// The product's named icons (SPEC.md section 9). Satellite and station follow the page theme
// unless told otherwise; the balloon is white and 48 px by default.
import { useTheme } from '@mui/material/styles';
import { ProductIcon, type ProductIconProps } from './ProductIcon';
import {
  BALLOON_SHAPE,
  SATELLITE_SHAPE,
  SOCIAL_SHAPE,
  STATION_SHAPE,
  type IconTheme,
} from './iconShapes';

type NamedIconProps = Omit<ProductIconProps, 'shape'>;

/** Light page: white-filled icons; dark page: black-filled ones. */
function usePageIconTheme(theme: IconTheme | undefined): IconTheme {
  const mode = useTheme().palette.mode;
  return theme ?? (mode === 'dark' ? 'dark' : 'light');
}

export function SatelliteIcon({ theme, ...rest }: NamedIconProps) {
  return <ProductIcon shape={SATELLITE_SHAPE} theme={usePageIconTheme(theme)} {...rest} />;
}

export function StationIcon({ theme, ...rest }: NamedIconProps) {
  return <ProductIcon shape={STATION_SHAPE} theme={usePageIconTheme(theme)} {...rest} />;
}

export function SocialIcon({ theme, ...rest }: NamedIconProps) {
  return <ProductIcon shape={SOCIAL_SHAPE} theme={usePageIconTheme(theme)} {...rest} />;
}

export const BALLOON_ICON_DEFAULT_SIZE = 48;
export const BALLOON_ICON_DEFAULT_COLOR = '#ffffff';

export function BalloonIcon({
  size = BALLOON_ICON_DEFAULT_SIZE,
  color = BALLOON_ICON_DEFAULT_COLOR,
  ...rest
}: NamedIconProps) {
  return <ProductIcon shape={BALLOON_SHAPE} size={size} color={color} {...rest} />;
}
