import type { LocationPickerProps } from './types';

export default function LocationPicker(_props: LocationPickerProps) {
  return <div />;
}
