import TextField from '@mui/material/TextField';
import { useState } from 'react';

/**
 * A required e-mail field whose error shows once the user has typed in it or left it, never on a
 * form just opened. `hint` is the helper text while there is no error to show.
 */
export function EmailField({
  label,
  value,
  onChange,
  error,
  hint = ' ',
  fullWidth = false,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  hint?: string;
  fullWidth?: boolean;
}) {
  const [touched, setTouched] = useState(false);
  return (
    <TextField
      label={label}
      type="email"
      autoComplete="email"
      fullWidth={fullWidth}
      required
      value={value}
      onChange={(event) => {
        onChange(event.target.value);
        setTouched(true);
      }}
      onBlur={() => setTouched(true)}
      error={touched && error !== null}
      helperText={(touched && error) || hint}
    />
  );
}
